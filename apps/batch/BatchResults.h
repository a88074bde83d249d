#pragma once
/// The results of a batch, gathered from its job folders (apps/batch/BatchRunner.h), so
/// that a batch run in one go, resumed, or run in shards on a cluster and joined with
/// `hagoromo batch merge` gives the same files, written together into OUT:
///   results.jsonl     one record per job of the manifest, in its order: id, name, line,
///                     kind, scene, set, status ("not_run" for a job with no record yet),
///                     exit code, attempts, seconds (wall, every attempt), CPU seconds,
///                     the worker's peak memory (MiB), state hash, gate values, failed
///                     gates, folder, outputs and thumbnail (paths relative to OUT)
///   results.csv       the same, one row per job, the gates in columns
///   summary.json, summary.md   counts per status and per failed gate, time spent
///   contact_sheet.png every job's picture in a grid (400 to a page: contact_sheet_2.png,
///                     ...), framed by its status (green passed, orange failed gates, red
///                     any other failure, grey not run) and labelled with its id, status
///                     and name
#include <filesystem>
#include <vector>

#include <nlohmann/json.hpp>

#include "apps/batch/BatchManifest.h"
#include "sim/core/Result.h"

namespace hg::batch {

/// Every job's record (see the file comment), in the manifest's order.
std::vector<nlohmann::json> collectBatchResults(const BatchManifest& manifest, const std::filesystem::path& out);

/// Writes the result files of `records` (collectBatchResults) into `out`, all of them or
/// none, and prints the summary unless quiet.
Status writeBatchResults(const std::vector<nlohmann::json>& records, const std::filesystem::path& out, bool quiet);

/// Whether every job of the records passed.
bool allPassed(const std::vector<nlohmann::json>& records);

}  // namespace hg::batch
