#pragma once
// main() of a benchmark program whose benchmarks need a headless OpenGL context.
#include <cstdio>
#include <memory>
#include <string>

#include <benchmark/benchmark.h>

#include "bench/BenchOutput.h"
#include "gl/HeadlessContext.h"

namespace hg::bench {

/// Creates the context into `context` (the benchmarks use it), runs the benchmarks named
/// on the command line with results in bench/results/<stem>_<host>.json (see
/// DefaultOutput), then releases the context. Exit code 3 without a context.
inline int runGlBenchmarks(int argc, char** argv, const char* program, const std::string& stem,
                           std::unique_ptr<gl::HeadlessContext>& context) {
  auto created = gl::HeadlessContext::create();
  if (!created) {
    std::fprintf(stderr, "%s: %s\n", program, created.error().message.c_str());
    return 3;
  }
  context = std::move(created).value();
  DefaultOutput output(argc, argv, stem);
  benchmark::Initialize(output.argc(), output.argv());
  benchmark::AddCustomContext("gl_renderer", context->description());
  const std::size_t ran = benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  context.reset();
  return output.finish(ran) ? 0 : 1;
}

}  // namespace hg::bench
