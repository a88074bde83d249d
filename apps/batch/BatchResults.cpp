#include "apps/batch/BatchResults.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include <stb/stb_easy_font.h>
#include <stb/stb_image_resize.h>

#include "apps/batch/BatchRunner.h"
#include "apps/common/OutputSet.h"
#include "render/Image.h"

namespace hg::batch {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kSheetColumns = 20;
constexpr int kSheetRows = 20;                          ///< 400 jobs to a page
constexpr int kThumbWidth = 192, kThumbHeight = 144;    ///< pixels
constexpr int kLabelHeight = 24, kFrame = 3, kGap = 4;  ///< pixels
constexpr const char* kGateColumns[] = {"intersections", "vertices_inside_body", "strain", "compression"};

json recordOf(const BatchJob& job, const fs::path& out) {
  auto found = findJobRecord(out, job);
  if (!found) {
    json spec = jobSpecJson(job);
    spec["status"] = "not_run";
    return spec;
  }
  json record = std::move(found->record);
  const std::string folder = fs::relative(found->folder, out).string();
  record["folder"] = folder;
  json outputs = json::array();
  for (const json& f : record.value("outputs", json::array())) outputs.push_back(folder + "/" + f.get<std::string>());
  record["outputs"] = outputs;
  if (record.contains("thumbnail") && record["thumbnail"].is_string())
    record["thumbnail"] = folder + "/" + record["thumbnail"].get<std::string>();
  return record;
}

std::string csvField(const json& value) {
  std::string text = value.is_null() ? "" : value.is_string() ? value.get<std::string>() : value.dump();
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted.push_back('"');  // CSV doubles a quote inside quotes
    quoted.push_back(c);
  }
  return quoted + "\"";
}

/// The smallest "area:<piece>" gate value (the most collapsed piece), or null.
json smallestAreaRatio(const json& values) {
  json smallest = nullptr;
  for (const auto& [name, value] : values.items())
    if (name.rfind("area:", 0) == 0 && value.is_number() && (smallest.is_null() || value < smallest)) smallest = value;
  return smallest;
}

std::string resultsCsv(const std::vector<json>& records) {
  std::string csv =
      "id,name,line,kind,scene,status,exit_code,attempts,seconds,cpu_seconds,max_rss_mib,state_hash,gates_passed,"
      "failed_gates";
  for (const char* g : kGateColumns) csv += std::string(",") + g;
  csv += ",min_area_ratio,folder,thumbnail,message\n";
  for (const json& r : records) {
    const json gates = r.value("gates", json::object());
    const json values = gates.value("values", json::object());
    std::string failed;
    for (const json& g : gates.value("failed", json::array())) {
      if (!failed.empty()) failed += ';';
      failed += g.get<std::string>();
    }
    std::vector<json> row = {r["id"],
                             r["name"],
                             r["line"],
                             r["kind"],
                             r["scene"],
                             r["status"],
                             r.value("exit_code", json(nullptr)),
                             r.value("attempts", json(nullptr)),
                             r.value("seconds", json(nullptr)),
                             r.value("cpu_seconds", json(nullptr)),
                             r.value("max_rss_mib", json(nullptr)),
                             r.value("state_hash", json(nullptr)),
                             gates.value("passed", json(nullptr)),
                             failed};
    for (const char* g : kGateColumns) row.push_back(values.value(g, json(nullptr)));
    row.push_back(smallestAreaRatio(values));
    row.push_back(r.value("folder", json(nullptr)));
    row.push_back(r.value("thumbnail", json(nullptr)));
    row.push_back(r.value("message", json(nullptr)));
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i > 0) csv += ',';
      csv += csvField(row[i]);
    }
    csv += "\n";
  }
  return csv;
}

json summaryOf(const std::vector<json>& records) {
  std::map<std::string, int> statuses, failedGates;
  double seconds = 0.0;
  for (const json& r : records) {
    ++statuses[r.value("status", "not_run")];
    seconds += r.value("seconds", 0.0);
    for (const json& g : r.value("gates", json::object()).value("failed", json::array()))
      ++failedGates[g.get<std::string>()];
  }
  return {{"jobs", records.size()}, {"statuses", statuses}, {"failed_gates", failedGates}, {"job_seconds", seconds}};
}

std::string summaryMarkdown(const json& summary) {
  std::string md = "# Batch summary\n\n" + std::to_string(summary["jobs"].get<int>()) + " jobs, " +
                   std::to_string(int(std::lround(summary["job_seconds"].get<double>()))) +
                   " s of job time.\n\n| status | jobs |\n|---|---:|\n";
  for (const auto& [status, n] : summary["statuses"].items()) md += "| " + status + " | " + n.dump() + " |\n";
  if (!summary["failed_gates"].empty()) {
    md += "\n| failed gate | jobs |\n|---|---:|\n";
    for (const auto& [gate, n] : summary["failed_gates"].items()) md += "| " + gate + " | " + n.dump() + " |\n";
  }
  return md;
}

std::array<std::uint8_t, 3> statusColour(const std::string& status) {
  if (status == "passed") return {40, 160, 60};
  if (status == "failed_gates") return {235, 140, 20};
  if (status == "not_run") return {150, 150, 150};
  return {210, 40, 40};
}

void fill(Image& image, int x0, int y0, int w, int h, std::array<std::uint8_t, 3> c) {
  for (int y = std::max(0, y0); y < std::min(image.height, y0 + h); ++y)
    for (int x = std::max(0, x0); x < std::min(image.width, x0 + w); ++x) {
      std::uint8_t* p = image.pixel(x, y);
      p[0] = c[0], p[1] = c[1], p[2] = c[2], p[3] = 255;
    }
}

/// `text` in stb_easy_font's segment font, drawn as its quads (axis-aligned rectangles).
void drawText(Image& image, int x, int y, const std::string& text, std::array<std::uint8_t, 3> c) {
  static char buffer[64 * 1024];
  std::string copy = text;
  unsigned char colour[4] = {c[0], c[1], c[2], 255};
  const int quads = stb_easy_font_print(float(x), float(y), copy.data(), colour, buffer, int(sizeof buffer));
  const float* v = reinterpret_cast<const float*>(buffer);
  for (int q = 0; q < quads; ++q, v += 16) {  // 4 vertices of x, y, z, colour (16 bytes)
    const int x0 = int(v[0]), y0 = int(v[1]), x1 = int(v[8]), y1 = int(v[9]);
    fill(image, x0, y0, x1 - x0, y1 - y0, c);
  }
}

/// The job's picture fitted into the thumbnail (letterboxed), or grey when it has none.
void drawThumbnail(Image& sheet, int x0, int y0, const json& record, const fs::path& out) {
  fill(sheet, x0, y0, kThumbWidth, kThumbHeight, {225, 225, 225});
  if (!record.contains("thumbnail") || !record["thumbnail"].is_string()) return;
  auto picture = readPng(out / record["thumbnail"].get<std::string>());
  if (!picture || picture->width <= 0 || picture->height <= 0) return;
  const double scale = std::min(double(kThumbWidth) / picture->width, double(kThumbHeight) / picture->height);
  const int w = std::max(1, int(picture->width * scale)), h = std::max(1, int(picture->height * scale));
  std::vector<std::uint8_t> small(std::size_t(w) * std::size_t(h) * 4);
  stbir_resize_uint8(picture->rgba.data(), picture->width, picture->height, 0, small.data(), w, h, 0, 4);
  const int ox = x0 + (kThumbWidth - w) / 2, oy = y0 + (kThumbHeight - h) / 2;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::uint8_t* s = &small[(std::size_t(y) * std::size_t(w) + std::size_t(x)) * 4];
      std::uint8_t* d = sheet.pixel(ox + x, oy + y);
      const int a = s[3];  // over the grey background
      for (int k = 0; k < 3; ++k) d[k] = std::uint8_t((s[k] * a + d[k] * (255 - a) + 127) / 255);
    }
}

Image contactSheetPage(const std::vector<json>& records, std::size_t first, std::size_t count, const fs::path& out) {
  const int cellW = kThumbWidth + 2 * kFrame + kGap, cellH = kThumbHeight + 2 * kFrame + kLabelHeight + kGap;
  const int columns = int(std::min<std::size_t>(kSheetColumns, count));
  const int rows = int((count + kSheetColumns - 1) / kSheetColumns);
  Image sheet;
  sheet.width = columns * cellW + kGap;
  sheet.height = rows * cellH + kGap;
  sheet.rgba.assign(std::size_t(sheet.width) * std::size_t(sheet.height) * 4, 255);
  for (std::size_t k = 0; k < count; ++k) {
    const json& r = records[first + k];
    const std::string status = r.value("status", "not_run");
    const int x0 = kGap + int(k % kSheetColumns) * cellW, y0 = kGap + int(k / kSheetColumns) * cellH;
    fill(sheet, x0, y0, kThumbWidth + 2 * kFrame, kThumbHeight + 2 * kFrame, statusColour(status));
    drawThumbnail(sheet, x0 + kFrame, y0 + kFrame, r, out);
    const int textY = y0 + kThumbHeight + 2 * kFrame + 3;
    drawText(sheet, x0, textY, r["id"].get<std::string>().substr(0, 8) + " " + status, {30, 30, 30});
    const std::string name = r.value("name", "");
    if (!name.empty()) drawText(sheet, x0, textY + 10, name.substr(0, 32), {90, 90, 90});
  }
  return sheet;
}

}  // namespace

std::vector<json> collectBatchResults(const BatchManifest& manifest, const fs::path& out) {
  std::vector<json> records;
  records.reserve(manifest.jobs.size());
  for (const BatchJob& job : manifest.jobs) records.push_back(recordOf(job, out));
  return records;
}

bool allPassed(const std::vector<json>& records) {
  return std::all_of(records.begin(), records.end(), [](const json& r) { return r.value("status", "") == "passed"; });
}

Status writeBatchResults(const std::vector<json>& records, const fs::path& out, bool quiet) {
  app::OutputSet outputs(out);
  std::string lines;
  for (const json& r : records) lines += r.dump() + "\n";
  if (Status s = outputs.writeText("results.jsonl", lines); !s) return s;
  if (Status s = outputs.writeText("results.csv", resultsCsv(records)); !s) return s;
  const json summary = summaryOf(records);
  if (Status s = outputs.writeText("summary.json", summary.dump(2) + "\n"); !s) return s;
  if (Status s = outputs.writeText("summary.md", summaryMarkdown(summary)); !s) return s;
  constexpr std::size_t kPage = std::size_t(kSheetColumns) * kSheetRows;
  for (std::size_t first = 0, page = 1; first < records.size(); first += kPage, ++page) {
    const Image sheet = contactSheetPage(records, first, std::min(kPage, records.size() - first), out);
    const std::string name = page == 1 ? "contact_sheet.png" : "contact_sheet_" + std::to_string(page) + ".png";
    if (Status s = outputs.write(name, [&](const fs::path& p) { return writePng(sheet, p); }); !s) return s;
  }
  if (Status s = outputs.commit(); !s) return s;
  if (!quiet) {
    std::printf("%s", summaryMarkdown(summary).c_str());
    for (const fs::path& p : outputs.finalPaths()) std::printf("wrote %s\n", p.string().c_str());
  }
  return {};
}

}  // namespace hg::batch
