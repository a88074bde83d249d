#include "sim/io/FieldTable.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <set>

namespace hg::fields {

namespace {

/// The schema's description of a key: its doc, then its unit in brackets.
std::string describeText(const KeyDoc& k) { return k.doc + (k.unit.empty() ? "" : " [" + k.unit + "]"); }

json keySchema(const KeyDoc& k) {
  json s = k.schema;
  s["description"] = describeText(k);
  if (!k.required && !k.value.is_null()) s["default"] = k.value;
  return s;
}

/// A table cell: '|' would end it.
std::string cell(const std::string& text) {
  std::string out;
  for (const char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string defaultText(const KeyDoc& k) {
  if (k.required) return "required";
  return k.value.is_null() ? std::string() : std::string("`") + k.value.dump() + "`";
}

void appendTables(std::string& out, const ObjectDoc& object, const std::string& path) {
  out += "#### " + (path.empty() ? std::string("Top level") : "`" + path + "`") +
         (object.title.empty() ? "" : " (`" + object.title + "`)") + "\n\n";
  if (!object.doc.empty()) out += object.doc + "\n\n";
  out += "| Key | Type | Unit | Range | Default | Description |\n";
  out += "| --- | --- | --- | --- | --- | --- |\n";
  for (const KeyDoc& k : object.keys)
    out += "| `" + k.key + "` | " + cell(k.type) + " | " + cell(k.unit) + " | " + cell(k.range) + " | " +
           cell(defaultText(k)) + " | " + cell(k.doc) + " |\n";
  out += "\n";
  for (const KeyDoc& k : object.keys)
    for (const ObjectDoc& child : k.objects)
      appendTables(out, child, (path.empty() ? "" : path + ".") + k.key + k.itemPath);
}

template <int N>
Value<glm::vec<N, float>> numbers(std::string type, std::string shape, Range range) {
  using V = glm::vec<N, float>;
  json item = {{"type", "number"}};
  range.constrain(item);
  json schema = {{"type", "array"}, {"items", item}, {"minItems", N}, {"maxItems", N}};
  return leaf<V>(
      std::move(type), range.text(), std::move(schema),
      [shape, range](const json& v, const std::string& name, V& into) {
        if (!v.is_array() || v.size() != std::size_t(N)) throw SceneError{name + " must be " + shape};
        for (const json& x : v)
          if (!x.is_number()) throw SceneError{name + " must be " + shape};
        V out;
        for (int i = 0; i < N; ++i) out[i] = scenejson::numberValue(v[std::size_t(i)], name);
        for (int i = 0; i < N; ++i) range.check(out[i], name);
        into = out;
      },
      [](const V& v) {
        json a = json::array();
        for (int i = 0; i < N; ++i) a.push_back(floatJson(v[i]));
        return a;
      });
}

}  // namespace

json objectSchema(const ObjectDoc& object) {
  json properties = json::object();
  json required = json::array();
  for (const KeyDoc& k : object.keys) {
    properties[k.key] = keySchema(k);
    if (k.required) required.push_back(k.key);
  }
  json s = {{"type", "object"}, {"additionalProperties", false}, {"properties", properties}};
  if (!object.doc.empty()) s["description"] = object.doc;
  if (!required.empty()) s["required"] = required;
  return s;
}

json fileSchema(const ObjectDoc& root, const std::string& title) {
  json s = objectSchema(root);
  s["$schema"] = "https://json-schema.org/draft/2020-12/schema";
  s["title"] = title;
  return s;
}

std::string keyReference(const ObjectDoc& root) {
  std::string out;
  appendTables(out, root, "");
  return out;
}

std::string quotedChoices(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + ("\"" + names[i] + "\"");
  return out;
}

std::string numberText(double value) {
  if (value == std::floor(value) && std::abs(value) < 1e15) return std::to_string((long long)value);
  return json(value).dump();
}

json floatJson(float value) {
  char digits[64];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  return json(std::strtod(std::string(digits, end).c_str(), nullptr));
}

std::string unknownKeyMessage(const std::string& noun, const std::string& where, const std::string& key,
                              std::vector<std::string> allowed) {
  const std::set<std::string> sorted(allowed.begin(), allowed.end());
  std::string list;
  for (const std::string& a : sorted) list += (list.empty() ? "" : ", ") + a;
  return "unknown " + noun + " '" + where + "." + key + "' (allowed: " + list + ")";
}

// ---- ranges ----

bool Range::contains(float value) const {
  if (min && !(openMin ? value > float(*min) : value >= float(*min))) return false;
  if (max && !(openMax ? value < float(*max) : value <= float(*max))) return false;
  return true;
}

bool Range::contains(double value) const {
  if (min && !(openMin ? value > *min : value >= *min)) return false;
  if (max && !(openMax ? value < *max : value <= *max)) return false;
  return true;
}

std::string Range::text() const {
  if (min && max)
    return std::string(openMin ? "(" : "[") + numberText(*min) + ", " + numberText(*max) + (openMax ? ")" : "]");
  if (min) return std::string(openMin ? "> " : ">= ") + numberText(*min);
  if (max) return std::string(openMax ? "< " : "<= ") + numberText(*max);
  return "";
}

void Range::constrain(json& schema) const {
  if (min) schema[openMin ? "exclusiveMinimum" : "minimum"] = *min;
  if (max) schema[openMax ? "exclusiveMaximum" : "maximum"] = *max;
}

Range positive() { return Range{0.0, std::nullopt, true, false}; }
Range atLeast(double lo) { return Range{lo, std::nullopt, false, false}; }
Range between(double lo, double hi) { return Range{lo, hi, false, false}; }
Range aboveUpTo(double lo, double hi) { return Range{lo, hi, true, false}; }

// ---- values ----

Value<float> number(Range range) {
  json schema = {{"type", "number"}};
  range.constrain(schema);
  return leaf<float>(
      "number", range.text(), std::move(schema),
      [range](const json& v, const std::string& name, float& into) {
        const float x = scenejson::numberValue(v, name);
        range.check(x, name);
        into = x;
      },
      [](const float& x) { return floatJson(x); });
}

Value<double> real(Range range) {
  json schema = {{"type", "number"}};
  range.constrain(schema);
  return leaf<double>(
      "number", range.text(), std::move(schema),
      [range](const json& v, const std::string& name, double& into) {
        const double x = scenejson::realValue(v, name);
        range.check(x, name);
        into = x;
      },
      [](const double& x) { return json(x); });
}

Value<bool> boolean() {
  return leaf<bool>(
      "true/false", "", {{"type", "boolean"}},
      [](const json& v, const std::string& name, bool& into) {
        if (!v.is_boolean()) throw SceneError{name + " must be true or false"};
        into = v.get<bool>();
      },
      [](const bool& b) { return json(b); });
}

namespace {

std::string stringOf(const json& v, const std::string& name, bool nonEmpty) {
  if (!v.is_string()) throw SceneError{name + (nonEmpty ? " must be a non-empty string" : " must be a string")};
  std::string s = v.get<std::string>();
  if (nonEmpty && s.empty()) throw SceneError{name + " must be a non-empty string"};
  return s;
}

json stringSchema(bool nonEmpty) {
  json schema = {{"type", "string"}};
  if (nonEmpty) schema["minLength"] = 1;
  return schema;
}

}  // namespace

Value<std::string> text(bool nonEmpty) {
  return leaf<std::string>(
      "string", "", stringSchema(nonEmpty),
      [nonEmpty](const json& v, const std::string& name, std::string& into) { into = stringOf(v, name, nonEmpty); },
      [](const std::string& s) { return s.empty() ? json() : json(s); });
}

Value<std::filesystem::path> path(bool nonEmpty) {
  return leaf<std::filesystem::path>(
      "string", "", stringSchema(nonEmpty),
      [nonEmpty](const json& v, const std::string& name, std::filesystem::path& into) {
        into = stringOf(v, name, nonEmpty);
      },
      [](const std::filesystem::path& p) { return p.empty() ? json() : json(p.string()); });
}

Value<std::string> outputName() {
  return leaf<std::string>(
      "string", "", stringSchema(true),
      [](const json& v, const std::string& name, std::string& into) { into = scenejson::outputName(v, name); },
      [](const std::string& s) { return s.empty() ? json() : json(s); });
}

Value<glm::vec2> vec2(std::string shape, Range range) { return numbers<2>("[x, z]", std::move(shape), range); }
Value<glm::vec3> vec3(Range range) { return numbers<3>("[x, y, z]", "an array of 3 numbers", range); }
Value<glm::vec4> vec4(std::string shape, Range range) { return numbers<4>("[a, b, c, d]", std::move(shape), range); }

}  // namespace hg::fields
