// A safetensors checkpoint from the command line: each shard's header read (never the weights), the config.json
// beside them, and the core's `checkpoint` call.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "io/json_reader.hpp"

namespace infercast::cli {

// `files`: its shards, from safetensors_files. Exits 2 with the file's name on a broken header.
json read_checkpoint(const std::string& path, const std::vector<std::string>& files);
// What a checkpoint's headers say, and where its config disagrees with them.
void report_checkpoint(const json& v, std::ostream& out);

}  // namespace infercast::cli
