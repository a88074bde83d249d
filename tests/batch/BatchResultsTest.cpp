// What a resume trusts and what the results say (apps/batch/BatchRunner.h, BatchResults.h):
// exit codes to statuses, complete records only, result files from the job folders.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "apps/batch/BatchResults.h"
#include "apps/batch/BatchRunner.h"
#include "render/Image.h"
#include "tests/support/TempDir.h"

namespace hg::batch {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

TEST(BatchStatus, ExitCodesMapToStatusesAndOnlyDeterministicEndsAreFinal) {
  EXPECT_EQ(statusOfExit(0, false, false), JobStatus::Passed);
  EXPECT_EQ(statusOfExit(6, false, false), JobStatus::FailedGates);
  EXPECT_EQ(statusOfExit(4, false, false), JobStatus::FailedSimulation);
  EXPECT_EQ(statusOfExit(2, false, false), JobStatus::FailedInput);
  EXPECT_EQ(statusOfExit(3, false, false), JobStatus::FailedGraphics);
  EXPECT_EQ(statusOfExit(70, false, false), JobStatus::Crashed);
  EXPECT_EQ(statusOfExit(137, true, false), JobStatus::Crashed);
  EXPECT_EQ(statusOfExit(143, false, true), JobStatus::TimedOut);
  for (JobStatus s : {JobStatus::Passed, JobStatus::FailedGates, JobStatus::FailedSimulation, JobStatus::FailedInput})
    EXPECT_TRUE(isFinal(s)) << jobStatusName(s);
  for (JobStatus s : {JobStatus::FailedOutput, JobStatus::FailedGraphics, JobStatus::Crashed, JobStatus::TimedOut})
    EXPECT_FALSE(isFinal(s)) << jobStatusName(s);
}

BatchManifest twoJobs() {
  BatchManifest manifest;
  manifest.path = "m.jsonl";
  for (const char* id : {"00000000000000aa", "00000000000000bb"}) {
    BatchJob job;
    job.id = id;
    job.line = manifest.jobs.size() + 1;
    job.name = "job, \"quoted\"";
    job.scene = "s.json";
    job.overrides = {{"cloth.fabric", "denim_11oz"}};
    manifest.jobs.push_back(job);
  }
  return manifest;
}

void writeRecord(const fs::path& folder, const json& record) {
  fs::create_directories(folder);
  std::ofstream(folder / "job.json") << record.dump(2);
}

TEST(BatchRecords, AResumeTrustsOnlyAWholeRecordOfTheSameJob) {
  test::TempDir out("batch_records");
  const BatchJob job = twoJobs().jobs[0];
  EXPECT_FALSE(findJobRecord(out, job));
  const fs::path folder = out / "jobs" / job.id;
  writeRecord(folder, {{"id", job.id}, {"status", "passed"}, {"outputs", {"a.obj", "log.txt"}}});
  EXPECT_FALSE(findJobRecord(out, job)) << "its outputs are missing";
  std::ofstream(folder / "a.obj") << "v 0 0 0\n";
  std::ofstream(folder / "log.txt") << "";
  auto found = findJobRecord(out, job);
  ASSERT_TRUE(found);
  EXPECT_TRUE(found->final);
  writeRecord(folder, {{"id", "ffffffffffffffff"}, {"status", "passed"}, {"outputs", json::array()}});
  EXPECT_FALSE(findJobRecord(out, job)) << "another job's record";
  std::ofstream(folder / "job.json") << "{\"id\": \"" << job.id << "\", \"stat";  // cut short
  EXPECT_FALSE(findJobRecord(out, job));
  fs::remove_all(folder);
  writeRecord(out / "failed" / job.id, {{"id", job.id}, {"status", "timed_out"}, {"outputs", json::array()}});
  found = findJobRecord(out, job);
  ASSERT_TRUE(found);
  EXPECT_FALSE(found->final) << "a time-out runs again on --resume";
}

TEST(BatchResults, FilesListEveryJobOfTheManifestInItsOrder) {
  test::TempDir out("batch_results");
  const BatchManifest manifest = twoJobs();
  const fs::path folder = out / "failed" / manifest.jobs[1].id;
  writeRecord(folder, {{"id", manifest.jobs[1].id},
                       {"name", manifest.jobs[1].name},
                       {"line", 2},
                       {"kind", "drape"},
                       {"scene", "s.json"},
                       {"status", "failed_gates"},
                       {"exit_code", 6},
                       {"gates",
                        {{"passed", false},
                         {"failed", {"strain", "area:skirt"}},
                         {"values", {{"strain", 0.7}, {"area:skirt", 0.3}, {"area:tshirt", 0.9}}}}},
                       {"thumbnail", "x.png"},
                       {"outputs", {"x.png"}}});
  Image picture;
  picture.width = 64;
  picture.height = 48;
  picture.rgba.assign(64 * 48 * 4, 200);
  ASSERT_TRUE(writePng(picture, folder / "x.png"));
  const std::vector<json> records = collectBatchResults(manifest, out);
  ASSERT_TRUE(writeBatchResults(records, out, true));
  EXPECT_FALSE(allPassed(records));

  std::ifstream jsonl(out / "results.jsonl");
  std::string first, second;
  std::getline(jsonl, first);
  std::getline(jsonl, second);
  EXPECT_EQ(json::parse(first)["status"], "not_run");
  EXPECT_EQ(json::parse(second)["folder"], "failed/" + manifest.jobs[1].id);
  EXPECT_EQ(json::parse(second)["thumbnail"], "failed/" + manifest.jobs[1].id + "/x.png");

  std::ifstream csvFile(out / "results.csv");
  std::stringstream csv;
  csv << csvFile.rdbuf();
  EXPECT_NE(csv.str().find("\"job, \"\"quoted\"\"\""), std::string::npos) << csv.str();  // quoted CSV field
  EXPECT_NE(csv.str().find(",failed_gates,6,"), std::string::npos) << csv.str();
  EXPECT_EQ(
      csv.str().substr(0, csv.str().find('\n')).find("id,name,line,kind,scene,status,exit_code,attempts,seconds,"), 0u);
  EXPECT_NE(csv.str().find("strain;area:skirt"), std::string::npos) << csv.str();
  EXPECT_NE(csv.str().find(",0.3,"), std::string::npos) << "the smallest area ratio: " << csv.str();

  std::ifstream summaryFile(out / "summary.json");
  const json summary = json::parse(summaryFile);
  EXPECT_EQ(summary["statuses"]["not_run"], 1);
  EXPECT_EQ(summary["statuses"]["failed_gates"], 1);
  EXPECT_EQ(summary["failed_gates"]["strain"], 1);

  auto sheet = readPng(out / "contact_sheet.png");
  ASSERT_TRUE(sheet);
  EXPECT_GT(sheet->width, 2 * 192);
  // The second job's frame is orange (failed gates), the first's grey (not run).
  const int cellWidth = 192 + 2 * 3 + 4;
  const std::uint8_t* grey = sheet->pixel(4 + 1, 4 + 1);
  const std::uint8_t* orange = sheet->pixel(4 + cellWidth + 1, 4 + 1);
  EXPECT_EQ(grey[0], 150);
  EXPECT_EQ(orange[0], 235);
  EXPECT_EQ(orange[1], 140);
}

}  // namespace
}  // namespace hg::batch
