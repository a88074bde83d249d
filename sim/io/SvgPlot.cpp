#include "sim/io/SvgPlot.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "sim/core/AtomicFile.h"

namespace hg {

namespace {

/// Relative slack when snapping a value to a multiple of the tick step (so that 0.3 / 0.1
/// = 2.9999999999999996 counts as the multiple 3).
constexpr double kSnap = 1e-9;

std::string escapeXml(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // XML 1.0 forbids control characters other than tab, newline and carriage return.
        if (static_cast<unsigned char>(ch) < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') break;
        out += ch;
    }
  }
  return out;
}

/// A coordinate in px, two decimals.
std::string px(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", v);
  return buffer;
}

/// A tick label: as many decimals as the step needs.
std::string tickLabel(double value, double step) {
  if (std::abs(value) < step * kSnap) value = 0.0;  // no "-0"
  char buffer[48];
  if (std::abs(value) >= 1e7 || step < 1e-6) {
    std::snprintf(buffer, sizeof buffer, "%g", value);
  } else {
    const int decimals = std::max(0, -int(std::floor(std::log10(step) + kSnap)));
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  }
  return buffer;
}

std::string shortNumber(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}

/// Distinct colours: the ten of matplotlib's "tab10", then hues a golden angle apart.
std::string seriesColour(std::size_t i) {
  static constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                             "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  constexpr std::size_t kPaletteSize = sizeof kPalette / sizeof kPalette[0];
  if (i < kPaletteSize) return kPalette[i];
  const double hue = std::fmod(double(i) * 137.508, 360.0);
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "hsl(%.1f,65%%,42%%)", hue);
  return buffer;
}

bool finitePoint(double x, double y) { return std::isfinite(x) && std::isfinite(y); }

/// An axis range [lo, hi] with its ticks; an end given in `fixedLo` / `fixedHi` is kept,
/// a free end is rounded out to the tick step.
struct Axis {
  double lo = 0.0, hi = 1.0;
  AxisTicks ticks;
  double fraction(double v) const { return (v - lo) / (hi - lo); }
};

Axis makeAxis(double dataLo, double dataHi, std::optional<double> fixedLo, std::optional<double> fixedHi,
              int targetIntervals) {
  double lo = fixedLo.value_or(dataLo), hi = fixedHi.value_or(dataHi);
  if (!std::isfinite(lo)) lo = std::isfinite(hi) ? hi - 1.0 : 0.0;
  if (!std::isfinite(hi)) hi = lo + 1.0;
  if (lo > hi) {
    if (fixedLo && fixedHi) {
      std::swap(lo, hi);
    } else if (fixedLo) {
      hi = lo;
    } else {
      lo = hi;
    }
  }
  if (lo == hi) {  // widen a point range on its free side(s)
    const double pad = std::max(std::abs(lo) * 0.1, 0.5);
    if (!fixedHi) hi += pad;
    if (!fixedLo) lo -= pad;
    if (lo == hi) hi = lo + pad;  // both fixed and equal
  }
  Axis axis;
  const double step = niceTickStep(hi - lo, targetIntervals);
  if (!fixedLo) lo = std::floor(lo / step + kSnap) * step;
  if (!fixedHi) hi = std::ceil(hi / step - kSnap) * step;
  axis.lo = lo;
  axis.hi = hi;
  const double k0 = std::ceil(lo / step - kSnap), k1 = std::floor(hi / step + kSnap);
  axis.ticks.step = step;
  axis.ticks.first = k0 * step;
  axis.ticks.count = k1 >= k0 ? int(k1 - k0) + 1 : 0;
  return axis;
}

/// The data's ranges over the finite points (and the reference lines for y); [0, 1] for an
/// axis without any.
struct DataRanges {
  double xLo, xHi, yLo, yHi;
};

DataRanges dataRanges(const LinePlot& plot) {
  double xLo = std::numeric_limits<double>::infinity(), xHi = -xLo, yLo = xLo, yHi = -xLo;
  for (const PlotSeries& s : plot.series) {
    assert(s.x.size() == s.y.size() && "PlotSeries: x and y must have the same length");
    for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
      if (!finitePoint(s.x[i], s.y[i])) continue;
      xLo = std::min(xLo, s.x[i]);
      xHi = std::max(xHi, s.x[i]);
      yLo = std::min(yLo, s.y[i]);
      yHi = std::max(yHi, s.y[i]);
    }
  }
  for (double r : plot.referenceLines) {
    if (!std::isfinite(r)) continue;
    yLo = std::min(yLo, r);
    yHi = std::max(yHi, r);
  }
  if (!std::isfinite(xLo)) xLo = 0.0, xHi = 1.0;
  if (!std::isfinite(yLo)) yLo = 0.0, yHi = 1.0;
  return {xLo, xHi, yLo, yHi};
}

/// The axes and where things go in the picture, px: the plot area (left, top, plotW x
/// plotH) with the legend right of it.
struct PlotLayout {
  Axis xAxis, yAxis;
  double width = 0.0, height = 0.0;  ///< the whole picture
  double legendWidth = 0.0;
  double left = 0.0, top = 0.0, plotW = 0.0, plotH = 0.0;
  double sx(double x) const { return left + xAxis.fraction(x) * plotW; }
  double sy(double y) const { return top + (1.0 - yAxis.fraction(y)) * plotH; }
};

PlotLayout layOut(const LinePlot& plot) {
  PlotLayout l;
  const DataRanges data = dataRanges(plot);
  l.xAxis = makeAxis(data.xLo, data.xHi, std::nullopt, std::nullopt, 6);
  l.yAxis = makeAxis(data.yLo, data.yHi, plot.yMin, plot.yMax, 5);
  l.width = std::max(plot.width, 200.0), l.height = std::max(plot.height, 150.0);
  // Text widths are estimated from the character count.
  const double charWidth = 7.0;
  std::size_t longestName = 0;
  for (const PlotSeries& s : plot.series) longestName = std::max(longestName, s.name.size());
  l.legendWidth = plot.series.empty() ? 0.0 : std::clamp(40.0 + charWidth * double(longestName), 80.0, 0.4 * l.width);
  std::size_t longestTick = 0;
  for (int i = 0; i < l.yAxis.ticks.count; ++i)
    longestTick = std::max(longestTick, tickLabel(l.yAxis.ticks.value(i), l.yAxis.ticks.step).size());
  const double bottom = 55.0, right = l.legendWidth + 20.0;
  l.left = std::max(70.0, 36.0 + charWidth * double(longestTick));
  l.top = plot.title.empty() ? 20.0 : 40.0;
  l.plotW = std::max(l.width - l.left - right, 40.0), l.plotH = std::max(l.height - l.top - bottom, 40.0);
  return l;
}

/// The XML declaration, the <svg> element, the plot area's clip path, the white
/// background and the title.
void appendDocumentStart(std::string& svg, const LinePlot& plot, const PlotLayout& l) {
  svg += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + px(l.width) + "\" height=\"" + px(l.height) +
         "\" viewBox=\"0 0 " + px(l.width) + " " + px(l.height) + "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  // The clip leaves room for a marker (and line) on the frame: data at a range end shows whole.
  const double clipPad = 4.0;
  svg += "<defs><clipPath id=\"plot-clip\"><rect x=\"" + px(l.left - clipPad) + "\" y=\"" + px(l.top - clipPad) +
         "\" width=\"" + px(l.plotW + 2 * clipPad) + "\" height=\"" + px(l.plotH + 2 * clipPad) +
         "\"/></clipPath></defs>\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  if (!plot.title.empty())
    svg += "<text class=\"title\" x=\"" + px(l.left + l.plotW / 2) + "\" y=\"" + px(l.top - 14.0) +
           "\" text-anchor=\"middle\" font-size=\"15\">" + escapeXml(plot.title) + "</text>\n";
}

/// Grid lines at the ticks of both axes, then the plot area's frame.
void appendGridAndFrame(std::string& svg, const PlotLayout& l) {
  svg += "<g class=\"grid\" stroke=\"#e4e4e4\" stroke-width=\"1\">\n";
  for (int i = 0; i < l.xAxis.ticks.count; ++i) {
    const std::string x = px(l.sx(l.xAxis.ticks.value(i)));
    svg += "<line x1=\"" + x + "\" y1=\"" + px(l.top) + "\" x2=\"" + x + "\" y2=\"" + px(l.top + l.plotH) + "\"/>\n";
  }
  for (int i = 0; i < l.yAxis.ticks.count; ++i) {
    const std::string y = px(l.sy(l.yAxis.ticks.value(i)));
    svg += "<line x1=\"" + px(l.left) + "\" y1=\"" + y + "\" x2=\"" + px(l.left + l.plotW) + "\" y2=\"" + y + "\"/>\n";
  }
  svg += "</g>\n";
  const std::string areaAttributes =
      "x=\"" + px(l.left) + "\" y=\"" + px(l.top) + "\" width=\"" + px(l.plotW) + "\" height=\"" + px(l.plotH) + "\"";
  svg += "<rect class=\"plot-area\" " + areaAttributes + " fill=\"none\" stroke=\"black\" stroke-width=\"1\"/>\n";
}

/// Both axes' ticks and tick labels, then the axis labels.
void appendAxes(std::string& svg, const LinePlot& plot, const PlotLayout& l) {
  svg += "<g class=\"x-axis\" stroke=\"black\" stroke-width=\"1\">\n";
  for (int i = 0; i < l.xAxis.ticks.count; ++i) {
    const double value = l.xAxis.ticks.value(i);
    const std::string x = px(l.sx(value));
    svg += "<line x1=\"" + x + "\" y1=\"" + px(l.top + l.plotH) + "\" x2=\"" + x + "\" y2=\"" +
           px(l.top + l.plotH + 5.0) + "\"/>\n";
    svg += "<text x=\"" + x + "\" y=\"" + px(l.top + l.plotH + 19.0) + "\" text-anchor=\"middle\" stroke=\"none\">" +
           escapeXml(tickLabel(value, l.xAxis.ticks.step)) + "</text>\n";
  }
  svg += "</g>\n";
  svg += "<g class=\"y-axis\" stroke=\"black\" stroke-width=\"1\">\n";
  for (int i = 0; i < l.yAxis.ticks.count; ++i) {
    const double value = l.yAxis.ticks.value(i);
    const std::string y = px(l.sy(value));
    svg += "<line x1=\"" + px(l.left - 5.0) + "\" y1=\"" + y + "\" x2=\"" + px(l.left) + "\" y2=\"" + y + "\"/>\n";
    svg += "<text x=\"" + px(l.left - 8.0) + "\" y=\"" + px(l.sy(value) + 4.0) +
           "\" text-anchor=\"end\" stroke=\"none\">" + escapeXml(tickLabel(value, l.yAxis.ticks.step)) + "</text>\n";
  }
  svg += "</g>\n";
  if (!plot.xLabel.empty())
    svg += "<text class=\"x-label\" x=\"" + px(l.left + l.plotW / 2) + "\" y=\"" + px(l.top + l.plotH + 42.0) +
           "\" text-anchor=\"middle\">" + escapeXml(plot.xLabel) + "</text>\n";
  if (!plot.yLabel.empty()) {
    const std::string x = px(18.0), y = px(l.top + l.plotH / 2);
    svg += "<text class=\"y-label\" x=\"" + x + "\" y=\"" + y + "\" text-anchor=\"middle\" transform=\"rotate(-90 " +
           x + " " + y + ")\">" + escapeXml(plot.yLabel) + "</text>\n";
  }
}

/// The finite reference lines, dashed across the plot area, each with its value.
void appendReferenceLines(std::string& svg, const LinePlot& plot, const PlotLayout& l) {
  if (plot.referenceLines.empty()) return;
  svg += "<g class=\"reference-lines\" clip-path=\"url(#plot-clip)\">\n";
  for (double r : plot.referenceLines) {
    if (!std::isfinite(r)) continue;
    const std::string y = px(l.sy(r));
    svg += "<line x1=\"" + px(l.left) + "\" y1=\"" + y + "\" x2=\"" + px(l.left + l.plotW) + "\" y2=\"" + y +
           "\" stroke=\"#555555\" stroke-width=\"1\" stroke-dasharray=\"6 4\"/>\n";
    svg += "<text x=\"" + px(l.left + 6.0) + "\" y=\"" + px(l.sy(r) - 4.0) + "\" fill=\"#555555\" font-size=\"11\">" +
           escapeXml(shortNumber(r)) + "</text>\n";
  }
  svg += "</g>\n";
}

/// The path data of a series: its finite points joined in order, a new subpath after
/// each gap (a non-finite point).
std::string seriesPath(const PlotSeries& series, const PlotLayout& l) {
  const std::size_t n = std::min(series.x.size(), series.y.size());
  std::string d;
  bool penDown = false;
  for (std::size_t i = 0; i < n; ++i) {
    if (!finitePoint(series.x[i], series.y[i])) {
      penDown = false;  // a gap: the next finite point starts a new subpath
      continue;
    }
    if (!d.empty()) d += ' ';
    d += penDown ? "L" : "M";
    d += px(l.sx(series.x[i])) + " " + px(l.sy(series.y[i]));
    penDown = true;
  }
  return d;
}

/// Every series, clipped to the plot area: its line, then a marker at each finite point.
void appendSeries(std::string& svg, const LinePlot& plot, const PlotLayout& l) {
  svg += "<g class=\"series\" clip-path=\"url(#plot-clip)\">\n";
  for (std::size_t s = 0; s < plot.series.size(); ++s) {
    const PlotSeries& series = plot.series[s];
    const std::string colour = seriesColour(s);
    const std::size_t n = std::min(series.x.size(), series.y.size());
    const std::string d = seriesPath(series, l);
    svg += "<g class=\"series-" + std::to_string(s) + "\" fill=\"" + colour + "\">\n";
    svg += "<path d=\"" + d + "\" fill=\"none\" stroke=\"" + colour +
           "\" stroke-width=\"2\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/>\n";
    for (std::size_t i = 0; i < n; ++i)
      if (finitePoint(series.x[i], series.y[i]))
        svg += "<circle class=\"marker\" cx=\"" + px(l.sx(series.x[i])) + "\" cy=\"" + px(l.sy(series.y[i])) +
               "\" r=\"3\"/>\n";
    svg += "</g>\n";
  }
  svg += "</g>\n";
}

/// The legend right of the plot area: a line, a marker and the name per series.
void appendLegend(std::string& svg, const LinePlot& plot, const PlotLayout& l) {
  if (plot.series.empty()) return;
  const double lx = l.left + l.plotW + 15.0, ly = l.top;
  svg += "<g class=\"legend\">\n";
  svg += "<rect x=\"" + px(lx) + "\" y=\"" + px(ly) + "\" width=\"" + px(l.legendWidth) + "\" height=\"" +
         px(10.0 + 18.0 * double(plot.series.size())) + "\" fill=\"white\" stroke=\"#999999\"/>\n";
  for (std::size_t s = 0; s < plot.series.size(); ++s) {
    const std::string colour = seriesColour(s);
    const double y = ly + 14.0 + 18.0 * double(s);
    svg += "<line x1=\"" + px(lx + 6.0) + "\" y1=\"" + px(y) + "\" x2=\"" + px(lx + 26.0) + "\" y2=\"" + px(y) +
           "\" stroke=\"" + colour + "\" stroke-width=\"2\"/>\n";
    svg += "<circle cx=\"" + px(lx + 16.0) + "\" cy=\"" + px(y) + "\" r=\"3\" fill=\"" + colour + "\"/>\n";
    svg +=
        "<text x=\"" + px(lx + 32.0) + "\" y=\"" + px(y + 4.0) + "\">" + escapeXml(plot.series[s].name) + "</text>\n";
  }
  svg += "</g>\n";
}

}  // namespace

double niceTickStep(double span, int targetIntervals) {
  if (!(span > 0.0) || !std::isfinite(span)) return 1.0;
  const double raw = span / double(std::max(1, targetIntervals));
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double normalized = raw / magnitude;
  const double nice = normalized < 1.5 ? 1.0 : normalized < 3.0 ? 2.0 : normalized < 7.0 ? 5.0 : 10.0;
  return nice * magnitude;
}

AxisTicks niceAxisTicks(double lo, double hi, bool roundOut, int targetIntervals) {
  if (roundOut) return makeAxis(lo, hi, std::nullopt, std::nullopt, targetIntervals).ticks;
  return makeAxis(lo, hi, lo, hi, targetIntervals).ticks;
}

std::string svgLinePlot(const LinePlot& plot) {
  const PlotLayout layout = layOut(plot);
  std::string svg;
  svg.reserve(4096);
  appendDocumentStart(svg, plot, layout);
  // Grid, then the frame, ticks and tick labels.
  appendGridAndFrame(svg, layout);
  appendAxes(svg, plot, layout);
  // Reference lines, then the series, clipped to the plot area.
  appendReferenceLines(svg, plot, layout);
  appendSeries(svg, plot, layout);
  appendLegend(svg, plot, layout);
  svg += "</svg>\n";
  return svg;
}

Status writeSvgLinePlot(const LinePlot& plot, const std::filesystem::path& path) {
  return writeFileAtomically(path, std::string_view(svgLinePlot(plot)));
}

}  // namespace hg
