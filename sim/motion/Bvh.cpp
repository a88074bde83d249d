#include "sim/motion/Bvh.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <utility>

#include "sim/core/Limits.h"

namespace hg {

namespace {

/// Frame lines by which a file may differ from its 'Frames:' count (a warning, not an error).
constexpr int kFrameCountSlack = 1;

struct Token {
  std::string_view text;
  int line = 0;  ///< 1-based
};

/// Splits `text` into whitespace-separated tokens; '{' and '}' are tokens of their own.
std::vector<Token> tokenize(std::string_view text) {
  std::vector<Token> tokens;
  int line = 1;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
    } else if (c == '{' || c == '}') {
      tokens.push_back({text.substr(i, 1), line});
      ++i;
    } else {
      const std::size_t start = i;
      while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])) && text[i] != '{' && text[i] != '}')
        ++i;
      tokens.push_back({text.substr(start, i - start), line});
    }
  }
  return tokens;
}

bool parseFloat(std::string_view s, float& out) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size() && std::isfinite(out);
}

bool parseInt(std::string_view s, int& out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

enum class ChannelKind { Position, Rotation };
struct Channel {
  ChannelKind kind;
  int axis;  ///< 0 x, 1 y, 2 z
};

bool channelFromName(std::string_view name, Channel& out) {
  static constexpr std::pair<std::string_view, Channel> kNames[] = {
      {"Xposition", {ChannelKind::Position, 0}}, {"Yposition", {ChannelKind::Position, 1}},
      {"Zposition", {ChannelKind::Position, 2}}, {"Xrotation", {ChannelKind::Rotation, 0}},
      {"Yrotation", {ChannelKind::Rotation, 1}}, {"Zrotation", {ChannelKind::Rotation, 2}}};
  for (const auto& [n, c] : kNames)
    if (n == name) {
      out = c;
      return true;
    }
  return false;
}

class Parser {
 public:
  Parser(std::string_view text, std::string_view source, float unitScale)
      : m_text(text), m_tokens(tokenize(text)), m_source(source), m_scale(unitScale) {}

  Result<BvhMotion> run() {
    if (!(m_scale > 0.0f) || !std::isfinite(m_scale))
      return Error{std::string(m_source) + ": unit scale " + std::to_string(m_scale) + " is not a positive number"};
    if (Status s = parseHierarchy(); !s) return s.error();
    if (Status s = parseMotion(); !s) return s.error();
    m_motion.skeleton.computeInverseBind();
    if (Status s = m_motion.skeleton.validate(); !s) return s.error().prefixed(std::string(m_source) + ": ");
    return std::move(m_motion);
  }

 private:
  Error errorAt(int line, const std::string& problem) const {
    return Error{std::string(m_source) + ":" + std::to_string(line) + ": " + problem};
  }
  int lineHere() const { return m_pos < m_tokens.size() ? m_tokens[m_pos].line : lastLine(); }
  int lastLine() const {
    int line = 1;
    for (char c : m_text) line += c == '\n';
    return line;
  }
  bool atEnd() const { return m_pos >= m_tokens.size(); }
  std::string_view peek() const { return atEnd() ? std::string_view() : m_tokens[m_pos].text; }
  static std::string quoted(std::string_view s) {
    std::string out;
    out.reserve(s.size() + 2);
    out += '\'';
    out += s;
    out += '\'';
    return out;
  }
  std::string found() const { return atEnd() ? "the end of the file" : quoted(peek()); }

  Status expect(std::string_view word, std::string_view context) {
    if (peek() != word)
      return errorAt(lineHere(), "expected '" + std::string(word) + "' " + std::string(context) + ", found " + found());
    ++m_pos;
    return {};
  }

  Status readNumber(float& out, std::string_view what) {
    if (atEnd()) return errorAt(lineHere(), "expected " + std::string(what) + ", found the end of the file");
    if (!parseFloat(peek(), out))
      return errorAt(lineHere(), "non-numeric value " + found() + " for " + std::string(what));
    ++m_pos;
    return {};
  }

  Status parseHierarchy() {
    if (Status s = expect("HIERARCHY", "at the start of the file"); !s) return s;
    if (peek() != "ROOT") return errorAt(lineHere(), "expected 'ROOT' after HIERARCHY, found " + found());
    while (peek() == "ROOT")
      if (Status s = parseJoint(-1); !s) return s;
    if (atEnd()) return errorAt(lineHere(), "missing MOTION section after the hierarchy");
    if (peek() == "}") return errorAt(lineHere(), "unbalanced braces: '}' without a matching '{'");
    if (peek() != "MOTION")
      return errorAt(lineHere(), "expected 'ROOT' or 'MOTION' after the hierarchy, found " + found());
    return {};
  }

  /// At a ROOT or JOINT keyword: reads the block, appends the joint (and its children).
  Status parseJoint(int parent) {
    const Token keyword = m_tokens[m_pos++];
    // The name is the rest of the keyword's line (names may contain spaces), up to '{'.
    std::string name;
    while (!atEnd() && m_tokens[m_pos].line == keyword.line && peek() != "{") {
      if (!name.empty()) name += ' ';
      name += m_tokens[m_pos++].text;
    }
    if (name.empty()) return errorAt(keyword.line, std::string(keyword.text) + " without a joint name");
    if (m_motion.skeleton.find(name) >= 0) return errorAt(keyword.line, "joint name '" + name + "' is used twice");
    const int openLine = lineHere();
    if (Status s = expect("{", "after " + std::string(keyword.text) + " " + name); !s) return s;

    const int index = int(m_motion.skeleton.joints.size());
    m_motion.skeleton.joints.push_back(Joint{name, parent, {}});
    m_motion.channelOrder.emplace_back();
    m_channels.emplace_back();

    if (Status s = expect("OFFSET", "as the first entry of joint '" + name + "'"); !s) return s;
    glm::vec3 offset;
    for (int c = 0; c < 3; ++c)
      if (Status s = readNumber(offset[c], "OFFSET of joint '" + name + "'"); !s) return s;
    m_motion.skeleton.joints[std::size_t(index)].rest.translation = offset * m_scale;

    if (peek() == "CHANNELS") {
      const int channelsLine = lineHere();
      ++m_pos;
      int count = 0;
      if (atEnd() || !parseInt(peek(), count) || count < 0)
        return errorAt(lineHere(),
                       "CHANNELS of joint '" + name + "' must start with a channel count, found " + found());
      ++m_pos;
      for (int c = 0; c < count; ++c) {
        if (atEnd() || m_tokens[m_pos].line != channelsLine || peek() == "{" || peek() == "}")
          return errorAt(channelsLine, "wrong channel count for joint '" + name + "': CHANNELS says " +
                                           std::to_string(count) + " but lists " + std::to_string(c));
        Channel channel{};
        if (!channelFromName(peek(), channel))
          return errorAt(lineHere(),
                         "unknown channel name " + found() + " for joint '" + name +
                             "' (expected Xposition, Yposition, Zposition, Xrotation, Yrotation or Zrotation)");
        m_motion.channelOrder[std::size_t(index)].emplace_back(peek());
        m_channels[std::size_t(index)].push_back(channel);
        ++m_pos;
      }
      if (!atEnd() && m_tokens[m_pos].line == channelsLine && peek() != "{" && peek() != "}") {
        Channel ignored{};
        return errorAt(channelsLine, channelFromName(peek(), ignored)
                                         ? "wrong channel count for joint '" + name + "': CHANNELS says " +
                                               std::to_string(count) + " but lists more"
                                         : "unknown channel name " + found() + " for joint '" + name + "'");
      }
      m_totalChannels += std::size_t(count);
    }

    while (true) {
      if (atEnd())
        return errorAt(lineHere(), "unbalanced braces: joint '" + name + "' opened on line " +
                                       std::to_string(openLine) + " is not closed");
      const std::string_view word = peek();
      if (word == "}") {
        ++m_pos;
        return {};
      }
      if (word == "JOINT") {
        if (Status s = parseJoint(index); !s) return s;
      } else if (word == "End") {
        if (Status s = parseEndSite(index); !s) return s;
      } else if (word == "MOTION" || word == "ROOT") {
        return errorAt(lineHere(), "unbalanced braces: " + found() + " inside joint '" + name + "' opened on line " +
                                       std::to_string(openLine));
      } else {
        return errorAt(lineHere(),
                       "unexpected " + found() + " in joint '" + name + "' (expected JOINT, End Site or '}')");
      }
    }
  }

  Status parseEndSite(int parent) {
    const int line = lineHere();
    ++m_pos;  // End
    if (Status s = expect("Site", "after 'End'"); !s) return s;
    if (Status s = expect("{", "after End Site"); !s) return s;
    const std::string& parentName = m_motion.skeleton.joints[std::size_t(parent)].name;
    std::string name = parentName + "_End";
    if (m_motion.skeleton.find(name) >= 0)
      return errorAt(line, "End Site name '" + name + "' is already used (one End Site per joint)");
    if (Status s = expect("OFFSET", "in the End Site of joint '" + parentName + "'"); !s) return s;
    glm::vec3 offset;
    for (int c = 0; c < 3; ++c)
      if (Status s = readNumber(offset[c], "End Site OFFSET of joint '" + parentName + "'"); !s) return s;
    if (peek() != "}")
      return errorAt(lineHere(),
                     atEnd() ? "unbalanced braces: End Site of joint '" + parentName + "' is not closed"
                             : "expected '}' closing the End Site of joint '" + parentName + "', found " + found());
    ++m_pos;
    Joint end{std::move(name), parent, {}};
    end.rest.translation = offset * m_scale;
    m_motion.skeleton.joints.push_back(std::move(end));
    m_motion.channelOrder.emplace_back();
    m_channels.emplace_back();
    return {};
  }

  Status parseMotion() {
    ++m_pos;  // MOTION
    if (peek() != "Frames:") return errorAt(lineHere(), "expected 'Frames:' after MOTION, found " + found());
    const int framesLine = lineHere();
    ++m_pos;
    int frames = 0;
    if (atEnd() || !parseInt(peek(), frames) || frames < 0)
      return errorAt(framesLine, "non-numeric or negative frame count " + found() + " after 'Frames:'");
    if (frames == 0) return errorAt(framesLine, "'Frames: 0': the motion has no frames");
    if (frames > limits::kMaxMotionFrames)
      return errorAt(framesLine, "'Frames: " + std::to_string(frames) + "' is out of range (at most " +
                                     std::to_string(limits::kMaxMotionFrames) + " frames)");
    ++m_pos;
    if (Status s = expect("Frame", "(the 'Frame Time:' line) after the frame count"); !s) return s;
    if (Status s = expect("Time:", "after 'Frame'"); !s) return s;
    float frameTime = 0.0f;
    if (Status s = readNumber(frameTime, "'Frame Time:'"); !s) return s;
    if (!(frameTime > 0.0f)) return errorAt(m_tokens[m_pos - 1].line, "'Frame Time:' must be positive");

    m_motion.frameTime = frameTime;
    // One line of numbers per frame, one number per channel.
    std::vector<std::vector<float>> values;
    values.reserve(std::min(std::size_t(frames), m_tokens.size() - m_pos));  // not more rows than are left to read
    while (!atEnd()) {
      const int line = lineHere();
      std::vector<float>& row = values.emplace_back();
      row.reserve(m_totalChannels);
      while (!atEnd() && m_tokens[m_pos].line == line) {
        float v = 0.0f;
        if (!parseFloat(peek(), v))
          return errorAt(line, "non-numeric value " + found() + " in frame " + std::to_string(values.size() - 1) +
                                   " (channel " + std::to_string(row.size()) + ")");
        row.push_back(v);
        ++m_pos;
      }
      if (row.size() != m_totalChannels)
        return errorAt(line, "frame " + std::to_string(values.size() - 1) + " has " + std::to_string(row.size()) +
                                 " values but the hierarchy declares " + std::to_string(m_totalChannels) + " channels");
      if (int(values.size()) > frames + kFrameCountSlack)
        return errorAt(line, "Frames count mismatch: 'Frames:' on line " + std::to_string(framesLine) + " says " +
                                 std::to_string(frames) + " but there are more frame lines");
    }
    // Exporters that count from 0 or drop the last line are off by one: harmless, so the
    // rows that are there count, with a warning; any other difference is an error.
    const int rows = int(values.size());
    if (rows == 0) return errorAt(lastLine(), "no frame lines after 'Frame Time:'");
    if (std::abs(rows - frames) > kFrameCountSlack)
      return errorAt(lastLine(), "Frames count mismatch: 'Frames:' on line " + std::to_string(framesLine) + " says " +
                                     std::to_string(frames) + " but the file has " + std::to_string(rows) +
                                     " frame lines");
    if (rows != frames)
      m_motion.warnings.push_back(std::string(m_source) + ":" + std::to_string(framesLine) + ": 'Frames:' says " +
                                  std::to_string(frames) + " but the file has " + std::to_string(rows) +
                                  " frame lines; using " + std::to_string(rows));
    m_motion.frameCount = rows;
    buildAnimation(values);
    return {};
  }

  void buildAnimation(const std::vector<std::vector<float>>& values) {
    Animation& anim = m_motion.animation;
    anim.name = std::string(m_source);
    anim.duration = m_motion.frameCount > 0 ? float(m_motion.frameCount - 1) * m_motion.frameTime : 0.0f;
    std::size_t first = 0;  // column of the joint's first channel
    for (std::size_t j = 0; j < m_channels.size(); ++j) {
      const std::vector<Channel>& channels = m_channels[j];
      if (channels.empty()) continue;
      bool hasPosition = false, hasRotation = false;
      std::string axes;
      for (const Channel& c : channels) {
        hasPosition |= c.kind == ChannelKind::Position;
        hasRotation |= c.kind == ChannelKind::Rotation;
        if (c.kind == ChannelKind::Rotation) axes += char('X' + c.axis);
      }
      AnimationChannel out;
      out.joint = int(j);
      const glm::vec3 rest = m_motion.skeleton.joints[j].rest.translation;
      for (std::size_t f = 0; f < values.size(); ++f) {
        const float time = float(f) * m_motion.frameTime;
        glm::vec3 position = rest;
        std::vector<float> angles;
        for (std::size_t c = 0; c < channels.size(); ++c) {
          const float v = values[f][first + c];
          if (channels[c].kind == ChannelKind::Position)
            position[channels[c].axis] = v * m_scale;
          else
            angles.push_back(v);
        }
        if (hasPosition) {
          out.translation.times.push_back(time);
          out.translation.values.push_back(position);
        }
        if (hasRotation) {
          out.rotation.times.push_back(time);
          out.rotation.values.push_back(bvhEulerRotation(axes, angles.data()));
        }
      }
      first += channels.size();
      anim.channels.push_back(std::move(out));
    }
  }

  std::string_view m_text;
  std::vector<Token> m_tokens;
  std::size_t m_pos = 0;
  std::string_view m_source;
  float m_scale;
  BvhMotion m_motion;
  std::vector<std::vector<Channel>> m_channels;  ///< per joint
  std::size_t m_totalChannels = 0;
};

}  // namespace

glm::quat bvhEulerRotation(std::string_view axes, const float* degrees) {
  glm::quat q(1.0f, 0.0f, 0.0f, 0.0f);
  for (std::size_t i = 0; i < axes.size(); ++i) {
    glm::vec3 axis(0.0f);
    axis[axes[i] - 'X'] = 1.0f;
    q = q * glm::angleAxis(glm::radians(degrees[i]), axis);
  }
  return glm::normalize(q);
}

Result<BvhMotion> parseBvh(std::string_view text, std::string_view sourceName, float unitScale) {
  return Parser(text, sourceName, unitScale).run();
}

Result<BvhMotion> loadBvh(const std::filesystem::path& path, float unitScale) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot read BVH file " + path.string() + ": it does not exist or is not readable"};
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return Error{"cannot read BVH file " + path.string() + ": read error"};
  Result<BvhMotion> motion = parseBvh(buffer.str(), path.string(), unitScale);
  if (motion) motion->animation.name = path.stem().string();
  return motion;
}

}  // namespace hg
