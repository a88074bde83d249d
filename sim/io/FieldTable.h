#pragma once
/// Scene readers from field tables. A Table<T> lists the keys of one JSON object of a scene
/// file: for each, where its value goes in T (a member, or a function that returns one), its
/// kind (a Value<M>: number, whole number, true/false, string, name from a list, vector,
/// object, array, map), unit and doc. Table::read walks an object through its table, so
/// unknown keys, wrong types, out-of-range values and missing keys are checked here, in one
/// place, with errors naming the key's path ("cloth.anisotropy.scale must be > 0",
/// "unknown key 'garments[0].lenght' (allowed: ...)"); a key given twice is refused while the
/// text is parsed (scenejson::parseDocument: "duplicate key 'solver.frames'").
///
/// An absent key keeps the value the object already holds, so a reader starts from the
/// settings struct's default-initialised value (or a prototype it names) and that value is
/// the key's default. Table::describe reports every key with that default, its unit, range
/// and doc (KeyDoc); the JSON Schemas of docs/schema/ and the key reference of
/// docs/user-guide.md are made from it (objectSchema, keyReference; apps/tools/write_scene_docs).
/// Checks that join several keys (one of two keys, a mesh file relative to the scene) stay
/// small named functions that a table runs after its walk (Table::check).
#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <nlohmann/json.hpp>

#include "sim/core/Result.h"
#include "sim/io/SceneJson.h"

namespace hg::fields {

using json = nlohmann::json;
using scenejson::SceneError;

struct ObjectDoc;

/// One key as the JSON Schemas and the key reference show it.
struct KeyDoc {
  std::string key;
  std::string type;   ///< the reference's type column: "number", "whole number", "[x, y, z]", "object", ...
  std::string unit;   ///< SI unit ("m", "N/m", "s"), "deg", or "" for a pure number or a name
  std::string range;  ///< the reference's range column: "1..4096", "> 0", "[0.005, 0.1]", "\"cpu\", \"gpu\""
  std::string doc;
  json schema = json::object();  ///< the value's JSON Schema without "description" and "default"
  json value;                    ///< the default; null: none (optional, derived from other keys, or required)
  bool required = false;
  std::vector<ObjectDoc> objects;  ///< the objects the value holds: one table, or one per variant
  std::string itemPath;            ///< their path after the key's: "" (an object), "[]" (items), ".<name>" (a map)
};

/// One object (a table) as the JSON Schemas and the key reference show it.
struct ObjectDoc {
  std::string title;  ///< the variant it is ("\"type\": \"skirt\""), or ""
  std::string doc;
  std::vector<KeyDoc> keys;
};

/// The JSON Schema (draft 2020-12) of an object: "additionalProperties": false, its keys'
/// types, ranges, defaults and descriptions (doc and unit), the required keys.
json objectSchema(const ObjectDoc& object);
/// The schema of a whole file: objectSchema with "$schema" and "title".
json fileSchema(const ObjectDoc& root, const std::string& title);
/// Markdown tables (key, type, unit, range, default, description), one per object of the
/// tree under `root`, each under a "#### `path`" heading ("#### Top level" for the root).
std::string keyReference(const ObjectDoc& root);
/// `"a", "b" or "c"`: the names of a choice as the error messages list them.
std::string quotedChoices(const std::vector<std::string>& names);
/// A number as the references print ranges: whole numbers without a fraction ("0", "512"),
/// others as JSON writes them ("0.005", "1e-06").
std::string numberText(double value);
/// A float as the JSON number with the fewest digits that reads back as the same float
/// (0.1f: 0.1, not 0.10000000149011612).
json floatJson(float value);

/// The values a number may take: [min, max], either end open or absent.
struct Range {
  std::optional<double> min, max;
  bool openMin = false, openMax = false;

  /// Floats compare as floats (0.005 in a scene is the float 0.005f, as the bound is).
  bool contains(float value) const;
  bool contains(double value) const;
  /// "> 0", ">= 0", "<= 80", "[0.005, 0.1]", "(0, 0.1]"; "" when unbounded.
  std::string text() const;
  /// Throws "NAME must be > 0" / "NAME must be in [LO, HI]" when `value` is outside.
  template <class F>
  void check(F value, const std::string& name) const {
    if (!contains(value)) throw SceneError{name + " must be " + (min && max ? "in " : "") + text()};
  }
  /// Adds minimum / exclusiveMinimum / maximum / exclusiveMaximum to a number's schema.
  void constrain(json& schema) const;
};
Range positive();                       ///< > 0
Range atLeast(double lo);               ///< >= lo
Range between(double lo, double hi);    ///< [lo, hi]
Range aboveUpTo(double lo, double hi);  ///< (lo, hi]

/// How one key's value is read into a member of type M, and described.
template <class M>
struct Value {
  /// Reads `value` (present in the file) into `into`; errors name it `name`.
  std::function<void(const json& value, const std::string& name, M& into)> read;
  /// Fills the doc's type, range, schema and default from `defaults` (the member's value
  /// before any key is read).
  std::function<void(KeyDoc& doc, M& defaults)> describe;
  /// The member's value as JSON (for defaults), or empty when it has no JSON form.
  std::function<json(const M&)> show;
  /// An object, an array or a map: at a file's top level it is named by its key alone
  /// ("cloth.size", not "scene.cloth.size").
  bool block = false;
};

/// A leaf value: `read` and `show`, described with a fixed type, range and schema.
template <class M>
Value<M> leaf(std::string type, std::string range, json schema,
              std::function<void(const json&, const std::string&, M&)> read, std::function<json(const M&)> show) {
  Value<M> v;
  v.read = std::move(read);
  v.show = show;
  v.describe = [type = std::move(type), range = std::move(range), schema = std::move(schema), show](KeyDoc& doc,
                                                                                                    M& defaults) {
    doc.type = type;
    doc.range = range;
    doc.schema = schema;
    if (show) doc.value = show(defaults);
  };
  return v;
}

/// "unknown NOUN 'WHERE.KEY' (allowed: a, b, c)", the allowed names sorted.
std::string unknownKeyMessage(const std::string& noun, const std::string& where, const std::string& key,
                              std::vector<std::string> allowed);

/// A finite number that fits a float, within `range` ("NAME must be a number", "NAME = 1e+39
/// is out of range ...", "NAME must be > 0", "NAME must be in [0.005, 0.1]").
Value<float> number(Range range = {});
/// A finite number kept in double precision, within `range`.
Value<double> real(Range range = {});
/// true or false: "NAME must be true or false".
Value<bool> boolean();
/// A string ("NAME must be a string"); non-empty: "NAME must be a non-empty string". An
/// empty default shows as none.
Value<std::string> text(bool nonEmpty = false);
/// A file or folder name (a string), relative to the scene's folder where the reader says so.
Value<std::filesystem::path> path(bool nonEmpty = false);
/// An output base name (scenejson::outputName): a plain file name, no folders, no leading '.'.
Value<std::string> outputName();
/// N numbers that fit floats, each within `range`: "NAME must be SHAPE" ("an array of 3
/// numbers", "[Ka, Kb, Kc, Kd]"), "NAME must be > 0".
Value<glm::vec2> vec2(std::string shape = "an array of 2 numbers", Range range = {});
Value<glm::vec3> vec3(Range range = {});
Value<glm::vec4> vec4(std::string shape, Range range = {});

/// A whole number in [lo, hi] (scenejson::wholeNumber's messages), stored as I. With
/// `aboveMessage`, a value above hi is "NAME " + aboveMessage instead.
template <class I = int>
Value<I> integer(long long lo, long long hi, std::string aboveMessage = "") {
  json schema = {{"type", "integer"}, {"minimum", lo}, {"maximum", hi}};
  return leaf<I>(
      "whole number", std::to_string(lo) + ".." + std::to_string(hi), std::move(schema),
      [lo, hi, aboveMessage](const json& v, const std::string& name, I& into) {
        if (aboveMessage.empty()) {
          into = I(scenejson::wholeNumber(v, name, lo, hi));
          return;
        }
        const long long x = scenejson::wholeNumber(v, name, lo, std::numeric_limits<long long>::max());
        if (x > hi) throw SceneError{name + " " + aboveMessage};
        into = I(x);
      },
      [](const I& value) { return json(static_cast<long long>(value)); });
}

/// One of `names` (a string), stored as the value paired with it. Without `parse`, another
/// string is "NAME must be \"a\", \"b\" or \"c\""; with it, the string goes to `parse` and its
/// error follows "NAME: ". The default shows as the first name paired with it.
template <class E>
Value<E> choice(std::vector<std::pair<std::string, E>> names, std::function<Result<E>(std::string_view)> parse = {}) {
  std::vector<std::string> list;
  for (const auto& n : names) list.push_back(n.first);
  json schema = {{"type", "string"}, {"enum", list}};
  std::string range;
  for (const std::string& n : list) range += (range.empty() ? "" : ", ") + ("\"" + n + "\"");
  return leaf<E>(
      "string", range, std::move(schema),
      [names, list, parse](const json& v, const std::string& name, E& into) {
        if (!v.is_string()) throw SceneError{name + " must be " + quotedChoices(list)};
        const std::string s = v.get<std::string>();
        if (parse) {
          Result<E> parsed = parse(s);
          if (!parsed) throw SceneError{name + ": " + parsed.error().message};
          into = *parsed;
          return;
        }
        for (const auto& [text, value] : names)
          if (text == s) {
            into = value;
            return;
          }
        throw SceneError{name + " must be " + quotedChoices(list)};
      },
      [names](const E& value) {
        for (const auto& [text, v] : names)
          if (v == value) return json(text);
        return json();
      });
}

/// `value` without a default in the docs (the default is derived: the file's name, say).
template <class M>
Value<M> noDefault(Value<M> value) {
  value.describe = [describe = value.describe](KeyDoc& doc, M& defaults) {
    describe(doc, defaults);
    doc.value = json();
  };
  return value;
}

template <class T>
class Table;

/// What an object key may hold besides an object.
template <class U>
struct ObjectOptions {
  std::function<void(U&)> onNull = {};        ///< null is accepted and does this ("sphere": null: no sphere)
  std::function<void(U&, bool)> onBool = {};  ///< true / false are accepted and do this ("settle": false)
};

/// An object read through `table` into the member.
template <class U>
Value<U> object(Table<U> table, ObjectOptions<U> options = {});

/// The member, optional: a value read from the key is stored in it (starting from `prototype`).
/// No default is shown (the key is absent by default).
template <class E>
Value<std::optional<E>> optional(Value<E> item, E prototype = E{}) {
  Value<std::optional<E>> v;
  v.block = item.block;
  v.read = [item, prototype](const json& value, const std::string& name, std::optional<E>& into) {
    E e = into ? *into : prototype;
    item.read(value, name, e);
    into = std::move(e);
  };
  v.describe = [item, prototype](KeyDoc& doc, std::optional<E>&) {
    E e = prototype;
    item.describe(doc, e);
    doc.value = json();
  };
  return v;
}

/// How many items an array holds and how they are named.
struct ListOptions {
  std::size_t min = 0;                                        ///< 1: "NAME must be a non-empty array"
  std::size_t max = std::numeric_limits<std::size_t>::max();  ///< more: "NAME: N items is out of range (at most MAX)"
  bool indexed = true;                                        ///< items are NAME[i] (false: NAME[])
  /// The message for more than `max` items, from the name and the count.
  std::function<std::string(const std::string& name, std::size_t count)> tooMany = {};
};

/// An array of values, each read starting from `prototype`; replaces the member's items.
template <class E>
Value<std::vector<E>> list(Value<E> item, ListOptions options = {}, E prototype = E{});
/// One value, or a non-empty array of them (NAME[i]).
template <class E>
Value<std::vector<E>> oneOrList(Value<E> item, E prototype = E{});

/// Keys and naming of a map (an object whose keys are names).
struct MapOptions {
  std::vector<std::string> keys = {};  ///< the names allowed (empty: any)
  std::string noun = "key";            ///< "unknown NOUN 'NAME.KEY' (allowed: ...)"
  std::size_t min = 0;                 ///< 1: "NAME must be a non-empty object"
  std::string placeholder = "<name>";  ///< the names' place in the reference's paths
};
/// An object whose keys are names and whose values are read through `item` (NAME.KEY).
template <class E>
Value<std::map<std::string, E>> map(Value<E> item, MapOptions options = {}, E prototype = E{});

/// An object kept as JSON, to be read through `table` later (described as the table).
template <class U>
Value<json> deferred(Table<U> table, U prototype = U{});

/// One variant of an object whose `key` names which it is.
template <class U>
struct Variant {
  std::string name;
  Table<U> table;                  ///< its keys besides the discriminator
  std::function<void(U&)> select;  ///< run before its keys are read (and for its defaults)
};
/// An object with a discriminator `key` ("type": "skirt") that picks the variant whose keys it
/// may have. A missing or unknown name is "NAME.KEY must be \"a\", ..." or, with `unknown`,
/// "NAME.KEY: " + unknown(the name).
template <class U>
Value<U> variants(std::string key, std::string doc, std::vector<Variant<U>> list,
                  std::function<std::string(const std::string&)> unknown = {});

/// An accessor for Table::add through members of members: nested(&Scene::settings,
/// &Settings::frameDt)(scene) is scene.settings.frameDt.
template <class Outer, class Inner, class... More>
auto nested(Outer outer, Inner inner, More... more) {
  if constexpr (sizeof...(More) == 0) return [ outer, inner ](auto& t) -> auto& {
      return std::invoke(inner, std::invoke(outer, t));
    };
  else
    return nested(nested(outer, inner), more...);
}

/// The member itself (a table of keys that read into the same struct as its parent's).
template <class T>
T& self(T& t) {
  return t;
}

/// One key of a table.
template <class T>
struct Field {
  std::string key, unit, doc;
  std::string missing;  ///< required: the error after the key's name (" is missing"); "": optional
  bool block = false;
  std::function<void(const json&, const std::string&, T&)> read;
  std::function<void(KeyDoc&, T&)> describe;
};

/// The keys of one JSON object read into a T.
template <class T>
class Table {
 public:
  explicit Table(std::string doc = "") : m_doc(std::move(doc)) {}
  const std::string& doc() const { return m_doc; }

  /// Adds `key`, read by `value` into std::invoke(access, t): a member pointer or a function
  /// returning a reference to the member. `unit` and `doc` describe it.
  template <class Access, class M>
  Table& add(std::string key, Access access, Value<M> value, std::string unit, std::string doc) {
    static_assert(std::is_same_v<std::invoke_result_t<const Access&, T&>, M&>,
                  "the member's type must be the value's type");
    Field<T> f;
    f.key = std::move(key);
    f.unit = std::move(unit);
    f.doc = std::move(doc);
    f.block = value.block;
    f.read = [access, read = value.read](const json& v, const std::string& name, T& t) {
      read(v, name, std::invoke(access, t));
    };
    f.describe = [access, describe = value.describe](KeyDoc& k, T& t) { describe(k, std::invoke(access, t)); };
    m_fields.push_back(std::move(f));
    return *this;
  }
  /// The key added last must be given: its absence is "NAME" + missing.
  Table& required(std::string missing = " is missing") {
    m_fields.back().missing = std::move(missing);
    return *this;
  }
  /// A key whose value is `name` (a variant's discriminator, checked by variants()).
  Table& constant(std::string key, const std::string& name, std::string doc) {
    Field<T> f;
    f.key = std::move(key);
    f.doc = std::move(doc);
    f.missing = " is missing";
    f.read = [](const json&, const std::string&, T&) {};
    f.describe = [name](KeyDoc& k, T&) {
      k.type = "string";
      k.range = "\"" + name + "\"";
      k.schema = {{"const", name}};
    };
    m_fields.push_back(std::move(f));
    return *this;
  }
  /// "$schema": the URI of the file's JSON Schema, for editors; a string, otherwise ignored.
  Table& schemaKey() {
    Field<T> f;
    f.key = "$schema";
    f.doc = "The JSON Schema of this file (docs/schema/), for editors; ignored when read";
    f.read = [](const json& v, const std::string& name, T&) {
      if (!v.is_string()) throw SceneError{name + " must be a string"};
    };
    f.describe = [](KeyDoc& k, T&) {
      k.type = "string";
      k.schema = {{"type", "string"}};
    };
    m_fields.push_back(std::move(f));
    return *this;
  }
  /// Every key and check of `other`, after this table's.
  Table& merge(const Table& other) {
    m_fields.insert(m_fields.end(), other.m_fields.begin(), other.m_fields.end());
    m_checks.insert(m_checks.end(), other.m_checks.begin(), other.m_checks.end());
    return *this;
  }
  /// Every key and check of `other`, a table of the member std::invoke(access, t), after
  /// this table's keys: the member's keys are read from this object.
  template <class Access, class U>
  Table& include(const Table<U>& other, Access access) {
    for (const Field<U>& f : other.fields()) {
      Field<T> g;
      g.key = f.key;
      g.unit = f.unit;
      g.doc = f.doc;
      g.missing = f.missing;
      g.block = f.block;
      g.read = [access, read = f.read](const json& v, const std::string& name, T& t) {
        read(v, name, std::invoke(access, t));
      };
      g.describe = [access, describe = f.describe](KeyDoc& k, T& t) { describe(k, std::invoke(access, t)); };
      m_fields.push_back(std::move(g));
    }
    for (const auto& c : other.checks())
      m_checks.push_back([access, c](T& t, const json& object, const std::string& where) {
        c(std::invoke(access, t), object, where);
      });
    return *this;
  }
  const std::vector<Field<T>>& fields() const { return m_fields; }
  const std::vector<std::function<void(T&, const json&, const std::string&)>>& checks() const { return m_checks; }
  /// Runs after the keys are read: `object` is the JSON object, `where` its name.
  Table& check(std::function<void(T& into, const json& object, const std::string& where)> check) {
    m_checks.push_back(std::move(check));
    return *this;
  }
  /// The file's root: its objects and arrays are named by their key alone ("cloth.size"),
  /// its other keys after the root ("scene.name").
  Table& topLevel() {
    m_top = true;
    return *this;
  }

  /// Reads `object` (named `where` in errors) into `into`: unknown keys, each key's value,
  /// missing required keys, then the checks. Throws SceneError.
  void read(const json& object, const std::string& where, T& into) const {
    if (!object.is_object()) throw SceneError{where + " must be an object"};
    for (const auto& item : object.items())
      if (!has(item.key())) throw SceneError{unknownKey(where, item.key())};
    for (const Field<T>& f : m_fields) {
      const std::string name = m_top && f.block ? f.key : where + "." + f.key;
      if (object.contains(f.key))
        f.read(object.at(f.key), name, into);
      else if (!f.missing.empty())
        throw SceneError{name + f.missing};
    }
    for (const auto& c : m_checks) c(into, object, where);
  }

  /// Every key with its default taken from `defaults`.
  ObjectDoc describe(T defaults, std::string title = "") const {
    ObjectDoc d;
    d.title = std::move(title);
    d.doc = m_doc;
    for (const Field<T>& f : m_fields) {
      KeyDoc k;
      k.key = f.key;
      k.unit = f.unit;
      k.doc = f.doc;
      k.required = !f.missing.empty();
      f.describe(k, defaults);
      if (k.required) k.value = json();
      d.keys.push_back(std::move(k));
    }
    return d;
  }

 private:
  bool has(const std::string& key) const {
    for (const Field<T>& f : m_fields)
      if (f.key == key) return true;
    return false;
  }
  std::string unknownKey(const std::string& where, const std::string& key) const {
    std::vector<std::string> keys;
    for (const Field<T>& f : m_fields) keys.push_back(f.key);
    return unknownKeyMessage("key", where, key, keys);
  }
  std::string m_doc;
  bool m_top = false;
  std::vector<Field<T>> m_fields;
  std::vector<std::function<void(T&, const json&, const std::string&)>> m_checks;
};

// ---- the templates declared above ----

template <class U>
Value<U> object(Table<U> table, ObjectOptions<U> options) {
  Value<U> v;
  v.block = true;
  v.read = [table, options](const json& value, const std::string& name, U& into) {
    if (value.is_null() && options.onNull) return options.onNull(into);
    if (value.is_boolean() && options.onBool) return options.onBool(into, value.get<bool>());
    table.read(value, name, into);
  };
  v.describe = [table, options](KeyDoc& doc, U& defaults) {
    ObjectDoc d = table.describe(defaults);
    doc.type = "object";
    doc.schema = objectSchema(d);
    if (options.onNull) {
      doc.type = "object or null";
      doc.schema["type"] = {"object", "null"};
    }
    if (options.onBool) {
      doc.type = "object or true/false";
      doc.schema["type"] = {"object", "boolean"};
    }
    doc.objects = {std::move(d)};
  };
  return v;
}

template <class E>
Value<std::vector<E>> list(Value<E> item, ListOptions options, E prototype) {
  Value<std::vector<E>> v;
  v.block = true;
  v.read = [item, options, prototype](const json& value, const std::string& name, std::vector<E>& into) {
    if (!value.is_array() || value.size() < options.min)
      throw SceneError{name + (options.min > 0 ? " must be a non-empty array" : " must be an array")};
    if (value.size() > options.max)
      throw SceneError{options.tooMany ? options.tooMany(name, value.size())
                                       : name + ": " + std::to_string(value.size()) +
                                             " items is out of range (at most " + std::to_string(options.max) + ")"};
    std::vector<E> items;
    for (std::size_t i = 0; i < value.size(); ++i) {
      E e = prototype;
      item.read(value[i], name + (options.indexed ? "[" + std::to_string(i) + "]" : "[]"), e);
      items.push_back(std::move(e));
    }
    into = std::move(items);
  };
  if (item.show)
    v.show = [show = item.show](const std::vector<E>& items) {
      json a = json::array();
      for (const E& e : items) a.push_back(show(e));
      return a;
    };
  v.describe = [item, options, prototype, show = v.show](KeyDoc& doc, std::vector<E>& defaults) {
    KeyDoc one;
    E e = prototype;
    item.describe(one, e);
    doc.type = "array of " + one.type + "s";
    doc.schema = {{"type", "array"}, {"items", one.schema}};
    std::string count;
    if (options.min > 0) doc.schema["minItems"] = options.min;
    if (options.max != std::numeric_limits<std::size_t>::max()) {
      doc.schema["maxItems"] = options.max;
      count = std::to_string(options.min) + ".." + std::to_string(options.max) + " items";
    } else if (options.min > 0) {
      count = "at least " + std::to_string(options.min) + " item";
    }
    doc.range = one.range.empty() ? count : (count.empty() ? "each " : count + "; each ") + one.range;
    if (show) doc.value = show(defaults);
    doc.objects = std::move(one.objects);
    doc.itemPath = "[]" + one.itemPath;
  };
  return v;
}

template <class E>
Value<std::vector<E>> oneOrList(Value<E> item, E prototype) {
  Value<std::vector<E>> v;
  v.block = true;
  v.read = [item, prototype](const json& value, const std::string& name, std::vector<E>& into) {
    std::vector<E> items;
    if (value.is_array()) {
      if (value.empty()) throw SceneError{name + " must be a non-empty array"};
      for (std::size_t i = 0; i < value.size(); ++i) {
        E e = prototype;
        item.read(value[i], name + "[" + std::to_string(i) + "]", e);
        items.push_back(std::move(e));
      }
    } else {
      E e = prototype;
      item.read(value, name, e);
      items.push_back(std::move(e));
    }
    into = std::move(items);
  };
  v.describe = [item, prototype](KeyDoc& doc, std::vector<E>&) {
    KeyDoc one;
    E e = prototype;
    item.describe(one, e);
    doc.type = one.type + " or array of them";
    doc.range = one.range;
    const json items = {{"type", "array"}, {"items", one.schema}, {"minItems", 1}};
    doc.schema = {{"anyOf", json::array({one.schema, items})}};
    doc.objects = std::move(one.objects);
    doc.itemPath = one.itemPath;
  };
  return v;
}

template <class E>
Value<std::map<std::string, E>> map(Value<E> item, MapOptions options, E prototype) {
  Value<std::map<std::string, E>> v;
  v.block = true;
  v.read = [item, options, prototype](const json& value, const std::string& name, std::map<std::string, E>& into) {
    if (!value.is_object()) throw SceneError{name + " must be an object"};
    if (value.size() < options.min) throw SceneError{name + " must be a non-empty object"};
    std::map<std::string, E> items;
    for (const auto& entry : value.items()) {
      if (!options.keys.empty() &&
          std::find(options.keys.begin(), options.keys.end(), entry.key()) == options.keys.end())
        throw SceneError{unknownKeyMessage(options.noun, name, entry.key(), options.keys)};
      E e = prototype;
      item.read(entry.value(), name + "." + entry.key(), e);
      items.emplace(entry.key(), std::move(e));
    }
    into = std::move(items);
  };
  v.describe = [item, options, prototype](KeyDoc& doc, std::map<std::string, E>&) {
    KeyDoc one;
    E e = prototype;
    item.describe(one, e);
    doc.type = "map of " + one.type;
    doc.schema = {{"type", "object"}, {"additionalProperties", one.schema}};
    if (!options.keys.empty()) {
      doc.schema["propertyNames"] = {{"enum", options.keys}};
      for (const std::string& k : options.keys) doc.range += (doc.range.empty() ? "keys " : ", ") + k;
    }
    if (options.min > 0) doc.schema["minProperties"] = options.min;
    doc.objects = std::move(one.objects);
    doc.itemPath = "." + options.placeholder + one.itemPath;
  };
  return v;
}

template <class U>
Value<json> deferred(Table<U> table, U prototype) {
  Value<json> v;
  v.block = true;
  v.read = [](const json& value, const std::string&, json& into) { into = value; };
  v.describe = [table, prototype](KeyDoc& doc, json&) {
    ObjectDoc d = table.describe(prototype);
    doc.type = "object";
    doc.schema = objectSchema(d);
    doc.objects = {std::move(d)};
  };
  return v;
}

template <class U>
Value<U> variants(std::string key, std::string doc, std::vector<Variant<U>> list,
                  std::function<std::string(const std::string&)> unknown) {
  std::vector<std::string> names;
  std::vector<Table<U>> tables;
  for (const Variant<U>& variant : list) {
    names.push_back(variant.name);
    Table<U> t(variant.table.doc());
    t.constant(key, variant.name, doc);
    t.merge(variant.table);
    tables.push_back(std::move(t));
  }
  Value<U> v;
  v.block = true;
  v.read = [key, names, tables, list, unknown](const json& value, const std::string& name, U& into) {
    if (!value.is_object()) throw SceneError{name + " must be an object"};
    const std::string at = name + "." + key;
    if (!value.contains(key) || !value.at(key).is_string()) throw SceneError{at + " must be " + quotedChoices(names)};
    const std::string chosen = value.at(key).get<std::string>();
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == chosen) {
        if (list[i].select) list[i].select(into);
        tables[i].read(value, name, into);
        return;
      }
    throw SceneError{unknown ? at + ": " + unknown(chosen) : at + " must be " + quotedChoices(names)};
  };
  v.describe = [key, names, tables, list](KeyDoc& d, U& defaults) {
    d.type = "object";
    json oneOf = json::array();
    for (std::size_t i = 0; i < names.size(); ++i) {
      U u = defaults;
      if (list[i].select) list[i].select(u);
      ObjectDoc o = tables[i].describe(u, "\"" + key + "\": \"" + names[i] + "\"");
      oneOf.push_back(objectSchema(o));
      d.objects.push_back(std::move(o));
    }
    d.schema = {{"oneOf", oneOf}};
  };
  return v;
}

}  // namespace hg::fields
