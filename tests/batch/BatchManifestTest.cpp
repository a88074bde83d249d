// Batch manifests (apps/batch/BatchManifest.h): JSON Lines and sweeps, stable ids, and
// errors that name the line before anything runs; shards.
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "apps/batch/BatchManifest.h"
#include "tests/support/TempDir.h"

namespace hg::batch {
namespace {

namespace fs = std::filesystem;

const std::string kScene = std::string(HG_SOURCE_DIR) + "/scenes/cloth_on_sphere.json";

fs::path write(const fs::path& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

std::string line(const std::string& set, const std::string& extra = {}) {
  return R"({"scene": ")" + kScene + R"(", "set": )" + set + extra + "}\n";
}

std::string errorOf(const fs::path& manifest) {
  auto loaded = loadBatchManifest(manifest);
  EXPECT_FALSE(loaded);
  return loaded ? std::string() : loaded.error().message;
}

TEST(BatchManifest, LinesBecomeJobsWithStableIdsThatFollowTheSpec) {
  test::TempDir dir("batch_manifest_lines");
  const fs::path a = write(dir / "a.jsonl", "# two fabrics\n\n" + line(R"({"cloth.resolution": 12})") +
                                                line(R"({"cloth.resolution": 16})", R"(, "name": "fine")"));
  auto manifest = loadBatchManifest(a);
  ASSERT_TRUE(manifest) << manifest.error().message;
  ASSERT_EQ(manifest->jobs.size(), 2u);
  EXPECT_EQ(manifest->jobs[0].line, 3u);
  EXPECT_EQ(manifest->jobs[1].line, 4u);
  EXPECT_EQ(manifest->jobs[1].name, "fine");
  EXPECT_EQ(manifest->jobs[0].kind, JobKind::Drape);
  EXPECT_EQ(manifest->jobs[0].outputName, "cloth_on_sphere");
  EXPECT_EQ(manifest->jobs[0].id.size(), 16u);
  EXPECT_NE(manifest->jobs[0].id, manifest->jobs[1].id);
  // The same job in another manifest (another line, another label, an override written as
  // the value the scene already has) has the same id: the id is the resolved spec's.
  const fs::path b = write(dir / "b.jsonl", line(R"({"cloth.resolution": 16, "solver.frames": 150})"));
  auto other = loadBatchManifest(b);
  ASSERT_TRUE(other) << other.error().message;
  EXPECT_EQ(other->jobs[0].id, manifest->jobs[1].id);
}

TEST(BatchManifest, EveryBadLineIsNamedAndNothingIsAccepted) {
  test::TempDir dir("batch_manifest_errors");
  const std::string good = line(R"({"cloth.resolution": 12})");
  EXPECT_NE(errorOf(write(dir / "m.jsonl", good + "{\"scene\": \n")).find("m.jsonl:2: not valid JSON"),
            std::string::npos);
  EXPECT_NE(errorOf(write(dir / "u.jsonl", good + R"({"sceen": "x.json"})"
                                                  "\n"))
                .find("u.jsonl:2: unknown key 'sceen' (allowed: kind, name, scene, set)"),
            std::string::npos);
  EXPECT_NE(errorOf(write(dir / "s.jsonl", good + R"({"scene": "missing.json"})"
                                                  "\n"))
                .find("s.jsonl:2: " + (dir / "missing.json").string() + ": cannot open scene file"),
            std::string::npos);
  const std::string key = errorOf(write(dir / "k.jsonl", good + line(R"({"cloth.resolutoin": 12})")));
  EXPECT_NE(key.find("k.jsonl:2: "), std::string::npos) << key;
  EXPECT_NE(key.find("resolutoin"), std::string::npos) << key;
  EXPECT_NE(errorOf(write(dir / "d.jsonl", good + good)).find("d.jsonl:2: the same job as line 1"), std::string::npos);
  EXPECT_NE(errorOf(write(dir / "t.jsonl", line("{}", R"(, "kind": "paint")"))).find("t.jsonl:1: kind 'paint'"),
            std::string::npos);
  EXPECT_NE(errorOf(write(dir / "e.jsonl", "\n# nothing\n")).find("no jobs"), std::string::npos);
  EXPECT_NE(errorOf(dir / "absent.jsonl").find("cannot open the manifest"), std::string::npos);
}

TEST(BatchManifest, ASweepIsTheProductOfItsValuesLastKeyFastest) {
  test::TempDir dir("batch_manifest_sweep");
  const fs::path sweep = write(dir / "sweep.json", R"({"sweep": {"scene": ")" + kScene + R"(",
      "set": {"solver.frames": 5},
      "vary": {"cloth.resolution": [8, 10, 12], "cloth.tensile_stiffness": [1000, 2000]}}})");
  auto manifest = loadBatchManifest(sweep);
  ASSERT_TRUE(manifest) << manifest.error().message;
  EXPECT_TRUE(manifest->sweep);
  ASSERT_EQ(manifest->jobs.size(), 6u);
  EXPECT_EQ(manifest->jobs[0].name, "resolution=8,tensile_stiffness=1000");
  EXPECT_EQ(manifest->jobs[1].name, "resolution=8,tensile_stiffness=2000");
  EXPECT_EQ(manifest->jobs[5].name, "resolution=12,tensile_stiffness=2000");
  EXPECT_EQ(manifest->jobs[5].overrides.size(), 3u);  // the fixed key and the two varied ones
  std::set<std::string> ids;
  for (const BatchJob& job : manifest->jobs) ids.insert(job.id);
  EXPECT_EQ(ids.size(), 6u);

  std::string big = "[0";
  for (int i = 1; i < 1001; ++i) big.append(",").append(std::to_string(i));
  big += "]";
  const std::string tooMany =
      errorOf(write(dir / "big.json",
                    R"({"sweep": {"scene": ")" + kScene + R"(", "vary": {"a": )" + big + R"(, "b": )" + big + "}}}"));
  EXPECT_NE(tooMany.find("more than 1000000 combinations"), std::string::npos) << tooMany;
  EXPECT_NE(errorOf(write(dir / "bad.json", R"({"sweep": {"scene": ")" + kScene + R"(", "vary": {"a": []}}})"))
                .find("'vary.a' must be a non-empty array"),
            std::string::npos);
}

TEST(BatchManifest, SnowAndSkinJobsAreReadByTheirOwnReaders) {
  test::TempDir dir("batch_manifest_kinds");
  const std::string snow = std::string(HG_SOURCE_DIR) + "/scenes/snow/bench_under_roof.json";
  const std::string skin = std::string(HG_SOURCE_DIR) + "/scenes/skin/bend_box.json";
  auto manifest = loadBatchManifest(write(dir / "k.jsonl", R"({"scene": ")" + snow +
                                                               R"(", "kind": "snow"})"
                                                               "\n" +
                                                               R"({"scene": ")" + skin +
                                                               R"(", "kind": "skin"})"
                                                               "\n"));
  ASSERT_TRUE(manifest) << manifest.error().message;
  EXPECT_EQ(manifest->jobs[0].kind, JobKind::Snow);
  EXPECT_EQ(manifest->jobs[1].kind, JobKind::Skin);
  // A drape key in a snow scene is refused by the snow reader, naming the line.
  const std::string wrong = errorOf(
      write(dir / "w.jsonl", R"({"scene": ")" + snow + R"(", "kind": "snow", "set": {"cloth.resolution": 3}})"));
  EXPECT_NE(wrong.find("w.jsonl:1: "), std::string::npos) << wrong;
}

TEST(BatchShards, SlicesAreDisjointAndCoverEveryJob) {
  for (int n : {1, 3, 4}) {
    std::vector<int> owners(13, 0);
    for (int i = 0; i < n; ++i)
      for (std::size_t p = 0; p < owners.size(); ++p) owners[p] += inShard(p, Shard{i, n});
    for (int count : owners) EXPECT_EQ(count, 1);
  }
  EXPECT_EQ(parseShard("2/4")->index, 2);
  EXPECT_FALSE(parseShard("4/4"));
  EXPECT_FALSE(parseShard("1/0"));
  EXPECT_FALSE(parseShard("a/2"));
  EXPECT_FALSE(parseShard("1"));
}

}  // namespace
}  // namespace hg::batch
