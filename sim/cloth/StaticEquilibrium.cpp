#include "sim/cloth/StaticEquilibrium.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include <Eigen/Sparse>
#include <Eigen/SparseCholesky>
#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>

namespace hg {
namespace {

using Vector = Eigen::VectorXd;

/// One spring's tension law (kernels::tensionMagnitude, tensionExponent 1) in double: the
/// energy (J), tension f (N, > 0 pulls the ends together) and its slope df/dr (N/m) at
/// extension e = r - L (m).
struct SpringLaw {
  double energy, tension, slope;
};

SpringLaw springLaw(double e, double restLength, double k, double stiffening, const StaticSolveSettings& settings) {
  if (e < 0.0) {
    const double ka = k * settings.compressionScale;
    return {0.5 * ka * e * e, ka * e, ka};
  }
  const double kb = k * settings.extensionScale;
  const double knee = restLength / 6.0;  // the stiffening grows linearly to strain 1/6, then holds
  if (e <= knee) {
    const double grow = 6.0 * stiffening / restLength;  // 1/m
    return {kb * (0.5 * e * e + grow * e * e * e / 3.0), kb * e * (1.0 + grow * e), kb * (1.0 + 2.0 * grow * e)};
  }
  const double atKnee = kb * (0.5 * knee * knee + 2.0 * stiffening * knee * knee * knee / restLength);
  const double stiff = kb * (1.0 + stiffening);
  return {atKnee + 0.5 * stiff * (e * e - knee * knee), stiff * e, stiff};
}

class StaticProblem {
 public:
  StaticProblem(const ClothModel& model, const StaticSolveSettings& settings, std::vector<glm::dvec3> pinnedAndStart)
      : m_model(model), m_settings(settings), m_stencils(hingeStencils(model)), m_x(std::move(pinnedAndStart)) {
    m_dof.assign(model.vertexCount(), -1);
    for (std::size_t i = 0; i < model.vertexCount(); ++i)
      if (model.restPositions[i].w != 0.0f) m_dof[i] = std::int64_t(3 * m_free++);
  }

  std::size_t freeCount() const { return m_free; }
  const std::vector<glm::dvec3>& positions() const { return m_x; }

  /// E at positions x (J).
  double energy(const std::vector<glm::dvec3>& x) const {
    double e = 0.0;
    for (const kernels::ClothSpring& s : m_model.springs) {
      const double r = glm::length(x[s.b] - x[s.a]);
      e += springLaw(r - s.restLength, s.restLength, s.stiffness, s.strainStiffening, m_settings).energy;
    }
    for (std::size_t h = 0; h < m_model.hinges.size(); ++h) {
      const glm::dvec3 v = hingeVector(x, h);
      e += 0.5 * hingeWeight(h) * glm::dot(v, v);
    }
    const glm::dvec3 g(m_settings.gravity);
    for (std::size_t i = 0; i < x.size(); ++i)
      if (m_dof[i] >= 0) e -= glm::dot(g, x[i]) / double(m_model.restPositions[i].w);
    return e;
  }

  /// The gradient of E over the free coordinates, and with `hessian` its Hessian (spring
  /// part projected to positive semidefinite), at the current positions.
  void gradientAndHessian(Vector& gradient, Eigen::SparseMatrix<double>* hessian) const {
    gradient = Vector::Zero(Eigen::Index(3 * m_free));
    std::vector<Eigen::Triplet<double>> entries;
    if (hessian) entries.reserve(36 * m_model.springs.size() + 144 * m_model.hinges.size());
    auto addForce = [&](std::uint32_t vertex, const glm::dvec3& f) {
      if (m_dof[vertex] < 0) return;
      for (int c = 0; c < 3; ++c) gradient[m_dof[vertex] + c] += f[c];
    };
    auto addBlock = [&](std::uint32_t a, std::uint32_t b, const glm::dmat3& block) {
      if (!hessian || m_dof[a] < 0 || m_dof[b] < 0) return;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
          if (block[c][r] != 0.0) entries.emplace_back(m_dof[a] + r, m_dof[b] + c, block[c][r]);
    };
    for (const kernels::ClothSpring& s : m_model.springs) {
      const glm::dvec3 d = m_x[s.b] - m_x[s.a];
      const double r = glm::length(d);
      if (r <= 1e-15) continue;
      const glm::dvec3 u = d / r;
      const SpringLaw law = springLaw(r - s.restLength, s.restLength, s.stiffness, s.strainStiffening, m_settings);
      addForce(s.b, law.tension * u);
      addForce(s.a, -law.tension * u);
      const glm::dmat3 uu = glm::outerProduct(u, u);
      const glm::dmat3 block = law.slope * uu + std::max(law.tension / r, 0.0) * (glm::dmat3(1.0) - uu);
      addBlock(s.a, s.a, block);
      addBlock(s.b, s.b, block);
      addBlock(s.a, s.b, -block);
      addBlock(s.b, s.a, -block);
    }
    for (std::size_t h = 0; h < m_model.hinges.size(); ++h) {
      const double w = hingeWeight(h);
      if (w == 0.0) continue;
      const glm::dvec3 v = hingeVector(m_x, h);
      const glm::uvec4 ids = m_model.hinges[h].vertices;
      const glm::dvec4 c(m_stencils[h].weights);
      for (int i = 0; i < 4; ++i) {
        addForce(ids[i], w * c[i] * v);
        for (int j = 0; j < 4; ++j) addBlock(ids[i], ids[j], glm::dmat3(w * c[i] * c[j]));
      }
    }
    const glm::dvec3 g(m_settings.gravity);
    for (std::size_t i = 0; i < m_x.size(); ++i)
      if (m_dof[i] >= 0) addForce(std::uint32_t(i), -g / double(m_model.restPositions[i].w));
    if (!hessian) return;
    hessian->resize(Eigen::Index(3 * m_free), Eigen::Index(3 * m_free));
    hessian->setFromTriplets(entries.begin(), entries.end());
  }

  /// The positions moved by alpha times the step over the free coordinates.
  std::vector<glm::dvec3> moved(const Vector& step, double alpha) const {
    std::vector<glm::dvec3> x = m_x;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (m_dof[i] >= 0) x[i] += alpha * glm::dvec3(step[m_dof[i]], step[m_dof[i] + 1], step[m_dof[i] + 2]);
    return x;
  }

  void set(std::vector<glm::dvec3> x) { m_x = std::move(x); }

 private:
  glm::dvec3 hingeVector(const std::vector<glm::dvec3>& x, std::size_t h) const {
    const glm::uvec4 v = m_model.hinges[h].vertices;
    const glm::dvec4 c(m_stencils[h].weights);
    // Offsets from the first vertex (the weights sum to 0): no rounding at the scale of x.
    return c.y * (x[v.y] - x[v.x]) + c.z * (x[v.z] - x[v.x]) + c.w * (x[v.w] - x[v.x]);
  }
  double hingeWeight(std::size_t h) const {
    return double(m_model.hinges[h].stiffness) * double(m_stencils[h].inverseEdgeLengthSq);
  }

  const ClothModel& m_model;
  const StaticSolveSettings& m_settings;
  std::vector<kernels::HingeStencil> m_stencils;
  std::vector<glm::dvec3> m_x;
  std::vector<std::int64_t> m_dof;  // first free coordinate of a vertex, -1 pinned
  std::size_t m_free = 0;
};

double largestEntry(const Vector& v) { return v.size() == 0 ? 0.0 : v.cwiseAbs().maxCoeff(); }

/// The largest vertex move (m) of a step over the free coordinates.
double largestMove(const Vector& step) {
  double largest = 0.0;
  for (Eigen::Index i = 0; i + 2 < step.size(); i += 3) largest = std::max(largest, step.segment<3>(i).norm());
  return largest;
}

/// Solves H d = -g. A singular H (a vertex that nothing holds in some direction: no
/// tension across it, no hinge) gets a diagonal shift of 1e-9, then 1e-8, ... of its mean
/// diagonal, up to 1e-3, which moves such a vertex as a very weak spring to where it is would.
Result<Vector> newtonStep(Eigen::SparseMatrix<double>& hessian, const Vector& gradient,
                          Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>>& factor) {
  const double meanDiagonal = hessian.diagonal().cwiseAbs().mean();
  Eigen::SparseMatrix<double> identity(hessian.rows(), hessian.cols());
  identity.setIdentity();
  for (int attempt = 0; attempt <= 7; ++attempt) {  // shifts 0, then 1e-9 .. 1e-3 of the mean diagonal
    const double shift = attempt == 0 ? 0.0 : 1e-9 * std::pow(10.0, attempt - 1) * meanDiagonal;
    factor.compute(attempt == 0 ? hessian : Eigen::SparseMatrix<double>(hessian + shift * identity));
    if (factor.info() == Eigen::Success) {
      Vector step = factor.solve(-gradient);
      if (step.allFinite() && gradient.dot(step) <= 0.0) return step;
    }
    if (!(meanDiagonal > 0.0)) break;
  }
  return Error{"static equilibrium: the Hessian could not be factored (a vertex nothing holds)"};
}

}  // namespace

Result<StaticSolveReport> solveStaticEquilibrium(const ClothModel& model, const StaticSolveSettings& settings,
                                                 std::vector<glm::vec4>& positions) {
  if (positions.size() != model.vertexCount())
    return Error{"static equilibrium: " + std::to_string(positions.size()) + " positions for " +
                 std::to_string(model.vertexCount()) + " vertices"};
  for (const kernels::ClothHinge& hinge : model.hinges)
    if (hinge.restAngle != 0.0f) return Error{"static equilibrium: the hinges must rest flat"};
  std::vector<glm::dvec3> start(positions.size());
  for (std::size_t i = 0; i < positions.size(); ++i) start[i] = glm::dvec3(positions[i]);
  StaticProblem problem(model, settings, std::move(start));
  StaticSolveReport report;
  Vector gradient;
  Eigen::SparseMatrix<double> hessian;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> factor;
  double energy = problem.energy(problem.positions());
  while (report.iterations < settings.maxIterations && problem.freeCount() > 0) {
    problem.gradientAndHessian(gradient, &hessian);
    auto step = newtonStep(hessian, gradient, factor);
    if (!step) return step.error();
    const double slope = gradient.dot(*step);
    ++report.iterations;
    // Backtracking (Armijo) on E; a step too small to change E in double is taken whole.
    double alpha = 1.0;
    std::vector<glm::dvec3> trial = problem.moved(*step, alpha);
    double trialEnergy = problem.energy(trial);
    while (slope < 0.0 && trialEnergy > energy + 1e-4 * alpha * slope && alpha > 1e-6) {
      alpha *= 0.5;
      trial = problem.moved(*step, alpha);
      trialEnergy = problem.energy(trial);
    }
    problem.set(std::move(trial));
    energy = trialEnergy;
    report.lastStep = alpha * largestMove(*step);
    if (report.lastStep < settings.stepTolerance) {
      report.converged = true;
      break;
    }
  }
  if (problem.freeCount() == 0) report.converged = true;
  problem.gradientAndHessian(gradient, nullptr);  // the forces left at the result
  report.largestForce = largestEntry(gradient);
  report.energy = energy;
  for (std::size_t i = 0; i < positions.size(); ++i)
    positions[i] = glm::vec4(glm::vec3(problem.positions()[i]), positions[i].w);
  return report;
}

}  // namespace hg
