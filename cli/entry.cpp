// The infercast executable: the CLI's run() (cli/main.cpp), which never exits the process itself.
#include "cli/command.hpp"

int main(int argc, char** argv) { return infercast::cli::run(argc, argv); }
