#pragma once
/// A small, dependency-free SVG line-plot writer for metric curves (e.g. a joint metric
/// against the bend angle, one series per skinning method). Axes with "nice" ticks
/// (steps of 1, 2 or 5 x 10^k) and grid lines, a legend, one colour per series, markers at
/// the data points, optional horizontal dashed reference lines (a goal such as 0.95).
/// Non-finite points are skipped and break the series' line. All text is XML-escaped.
///
/// Limitations: linear axes only; text widths (legend, tick labels) are estimated from
/// the character count, not measured.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/Result.h"

namespace hg {

/// One curve: points (x[i], y[i]) joined in order; x and y have the same length.
struct PlotSeries {
  std::string name;  ///< legend text
  std::vector<double> x, y;
};

/// A line plot. The x range is the data's, rounded out to ticks; the y range likewise
/// (reference lines included) unless yMin / yMax fix an end; data outside a fixed range is
/// clipped to the plot area.
struct LinePlot {
  std::string title, xLabel, yLabel;
  std::vector<PlotSeries> series;
  std::optional<double> yMin, yMax;
  std::vector<double> referenceLines;  ///< y values drawn as horizontal dashed lines
  double width = 720.0;                ///< px, the whole picture
  double height = 440.0;               ///< px
};

/// Ticks of one axis: value = first + i step for i in [0, count).
struct AxisTicks {
  double first = 0.0;
  double step = 1.0;
  int count = 0;
  double value(int i) const { return first + double(i) * step; }
};

/// A nice step (1, 2 or 5 x 10^k) that divides a range of `span` (> 0) into about
/// `targetIntervals` intervals.
double niceTickStep(double span, int targetIntervals = 5);

/// An axis covering [lo, hi] (lo <= hi; equal ends are widened): when `roundOut`, the
/// range is extended to the enclosing multiples of the step (first tick <= lo, last tick
/// >= hi); otherwise the ticks are the step's multiples inside [lo, hi].
AxisTicks niceAxisTicks(double lo, double hi, bool roundOut, int targetIntervals = 5);

/// The plot as a standalone SVG document (UTF-8).
std::string svgLinePlot(const LinePlot& plot);

/// Writes svgLinePlot(plot) to `path` atomically (writeFileAtomically).
Status writeSvgLinePlot(const LinePlot& plot, const std::filesystem::path& path);

}  // namespace hg
