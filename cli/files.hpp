// File access for the CLI: the only place the native build touches the filesystem.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace infercast {

// Whether `path` names something to read: a regular file, a named pipe (a shell's process substitution, <(cat
// hw.json), is /dev/fd/N) or a character device (/dev/stdin, /dev/null). Not a folder, and not a missing path (a
// preset id).
bool file_exists(const std::string& path);
// Reads a whole file of at most limit::kRequestBytes; throws InputError("cli.unreadable_file") naming the path (a
// folder, a block device or a socket is refused as such, never read as empty), or cli.too_large past the limit (a
// device such as /dev/zero included: at most limit + 1 bytes are ever read). A named pipe is read until its writer
// closes it; with no writer, the read waits for one, as cat does.
std::string read_text_file(const std::string& path);
// Standard input, within the same limit.
std::string read_stdin();
// Reads at most the first `limit` bytes of a file (a GGUF header, not its weights); refuses what read_text_file does.
std::string read_file_prefix(const std::string& path, std::size_t limit);
// Writes `text` to `path` (created or truncated) and closes it: "" when every byte reached the file, else why not
// ("No space left on device"), the write and the close both checked.
std::string write_text_file(const std::string& path, const std::string& text);

// The .safetensors files of a checkpoint: every *.safetensors in `path` when it is a folder, or in the folder of
// `path` when it names one (a snapshot folder holds one checkpoint, often in shards); sorted. Empty when `path`
// is neither.
std::vector<std::string> safetensors_files(const std::string& path);
// The config.json beside a checkpoint (in the folder, or the file's folder); "" when there is none.
std::string config_beside(const std::string& path);
// A model folder's config.json, else its params.json (Mistral's own format); "" when `path` is not a folder or
// holds neither.
std::string config_in_folder(const std::string& path);

}  // namespace infercast
