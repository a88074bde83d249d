// The generic scene reader (sim/io/FieldTable.h): one walk checks unknown keys, types, ranges
// and missing keys with errors naming the key's path; absent keys keep the struct's defaults,
// which the schema reports.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/io/FieldTable.h"

namespace hg {
namespace {

using namespace fields;

struct Inner {
  float width = 0.5f;
  int count = 3;
};

struct Outer {
  std::string name = "outer";
  bool on = false;
  Inner inner;
  std::vector<Inner> items;
  glm::vec3 at{0.0f, 1.0f, 0.0f};
  std::string kind = "round";
};

Table<Outer> outerTable() {
  Table<Inner> inner("An inner object");
  inner.add("width", &Inner::width, number(positive()), "m", "Width");
  inner.add("count", &Inner::count, integer(1, 10), "", "Count");
  Table<Outer> t("The file");
  t.topLevel().schemaKey();
  t.add("name", &Outer::name, text(), "", "Name");
  t.add("on", &Outer::on, boolean(), "", "Switch");
  t.add("inner", &Outer::inner, object(inner), "", "One inner object");
  t.add("items", &Outer::items, list(object(inner)), "", "Inner objects");
  t.add("at", &Outer::at, vec3(), "m", "Where");
  t.add("kind", &Outer::kind, choice<std::string>({{"round", "round"}, {"flat", "flat"}}), "", "Shape");
  return t;
}

/// Reads `text` into `into`; the error message, or "" when it was read.
std::string read(const std::string& text, Outer& into) {
  try {
    outerTable().read(scenejson::parseDocument(text), "scene", into);
  } catch (const SceneError& e) {
    return e.message;
  }
  return "";
}

std::string error(const std::string& text) {
  Outer o;
  return read(text, o);
}

TEST(FieldTable, AbsentKeysKeepTheDefaultsAndGivenKeysAreRead) {
  Outer o;
  ASSERT_EQ(read("{}", o), "");
  EXPECT_EQ(o.name, "outer");
  EXPECT_FLOAT_EQ(o.inner.width, 0.5f);
  EXPECT_EQ(o.inner.count, 3);
  ASSERT_EQ(read(R"({"$schema": "x.json", "name": "n", "on": true, "inner": {"count": 7},
                    "items": [{"width": 2}, {}], "at": [1, 2, 3], "kind": "flat"})",
                 o),
            "");
  EXPECT_EQ(o.name, "n");
  EXPECT_TRUE(o.on);
  EXPECT_EQ(o.inner.count, 7);
  EXPECT_FLOAT_EQ(o.inner.width, 0.5f);
  ASSERT_EQ(o.items.size(), 2u);
  EXPECT_FLOAT_EQ(o.items[0].width, 2.0f);
  EXPECT_EQ(o.items[1].count, 3);
  EXPECT_EQ(o.at, glm::vec3(1.0f, 2.0f, 3.0f));
  EXPECT_EQ(o.kind, "flat");
}

TEST(FieldTable, AnUnknownKeyNamesItsPathAndTheAllowedKeys) {
  EXPECT_EQ(error(R"({"inner": {"widht": 1}})"), "unknown key 'inner.widht' (allowed: count, width)");
  EXPECT_EQ(error(R"({"nmae": "x"})"), "unknown key 'scene.nmae' (allowed: $schema, at, inner, items, kind, name, on)");
  EXPECT_EQ(error("[1]"), "scene must be an object");
}

TEST(FieldTable, AWrongTypeIsAnError) {
  EXPECT_EQ(error(R"({"on": 1})"), "scene.on must be true or false");
  EXPECT_EQ(error(R"({"inner": {"width": "wide"}})"), "inner.width must be a number");
  EXPECT_EQ(error(R"({"inner": {"count": 2.5}})"), "inner.count must be a whole number (1..10)");
  EXPECT_EQ(error(R"({"at": [1, 2]})"), "scene.at must be an array of 3 numbers");
  EXPECT_EQ(error(R"({"items": {}})"), "items must be an array");
  EXPECT_EQ(error(R"({"kind": "square"})"), "scene.kind must be \"round\" or \"flat\"");
  EXPECT_EQ(error(R"({"inner": 3})"), "inner must be an object");
}

TEST(FieldTable, AValueOutOfRangeIsAnError) {
  EXPECT_EQ(error(R"({"inner": {"count": 11}})"), "inner.count = 11 is out of range (1..10)");
  EXPECT_EQ(error(R"({"inner": {"width": 0}})"), "inner.width must be > 0");
  EXPECT_EQ(error(R"({"inner": {"width": 1e39}})").rfind("inner.width = 1e+39 is out of range", 0), 0u);
}

TEST(FieldTable, ADuplicateKeyIsAnErrorNamingItsPath) {
  EXPECT_EQ(error(R"({"inner": {"count": 1, "count": 2}})"),
            "duplicate key 'inner.count' (each key may appear once in an object)");
}

TEST(FieldTable, NestedErrorsNameTheWholePath) {
  EXPECT_EQ(error(R"({"items": [{"count": 1}, {"count": 0}]})"), "items[1].count = 0 is out of range (1..10)");
  EXPECT_EQ(error(R"({"items": [{}, {"size": 1}]})"), "unknown key 'items[1].size' (allowed: count, width)");
}

TEST(FieldTable, ARequiredKeyMustBeGiven) {
  Table<Inner> t;
  t.add("count", &Inner::count, integer(1, 10), "", "Count").required();
  Inner inner;
  try {
    t.read(json::object(), "block", inner);
    FAIL() << "a missing required key was accepted";
  } catch (const SceneError& e) {
    EXPECT_EQ(e.message, "block.count is missing");
  }
}

TEST(FieldTable, TheSchemaHasTheDefaultsUnitsAndRanges) {
  const ObjectDoc doc = outerTable().describe(Outer{});
  const json schema = objectSchema(doc);
  EXPECT_EQ(schema["additionalProperties"], false);
  EXPECT_EQ(schema["type"], "object");
  const json& width = schema["properties"]["inner"]["properties"]["width"];
  EXPECT_EQ(width["type"], "number");
  EXPECT_EQ(width["default"], 0.5);
  EXPECT_EQ(width["exclusiveMinimum"], 0.0);
  EXPECT_EQ(width["description"], "Width [m]");
  const json& count = schema["properties"]["items"]["items"]["properties"]["count"];
  EXPECT_EQ(count["minimum"], 1);
  EXPECT_EQ(count["maximum"], 10);
  EXPECT_EQ(schema["properties"]["kind"]["enum"], json::array({"round", "flat"}));
  EXPECT_EQ(schema["properties"]["at"]["default"], json::array({0.0, 1.0, 0.0}));
  const std::string reference = keyReference(doc);
  EXPECT_NE(reference.find("#### `inner`"), std::string::npos) << reference;
  EXPECT_NE(reference.find("| `width` | number | m | > 0 | `0.5` | Width |"), std::string::npos) << reference;
}

}  // namespace
}  // namespace hg
