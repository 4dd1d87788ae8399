// SPDX-License-Identifier: MIT
// The step's constants (MakeStepContext, MakeSoftness) and the sub-step stage list (RunSubSteps),
// Box2D v3's solver.c; the stages themselves are in body_integrator.cpp, contact_solver.cpp and the
// joint files.
#include "solver/solver.h"

#include "core/parallel.h"

#include <algorithm>
#include <numbers>

namespace mk {

namespace {

// Classic mode's position passes per step (Box2D 2.x's default).
constexpr int kClassicPositionIterations = 3;

}  // namespace

Softness MakeSoftness(float hertz, float zeta, float h) {
  if (hertz <= 0.0f) return {0.0f, 1.0f, 0.0f};  // rigid
  float omega = 2.0f * std::numbers::pi_v<float> * hertz;
  float a1 = 2.0f * zeta + h * omega;
  // An undamped spring so weak that h omega underflows: the limit omega -> 0 is no spring at all
  // (massScale 0, impulseScale 1), where omega / a1 would be 0 / 0.
  if (a1 == 0.0f) return {0.0f, 0.0f, 1.0f};
  float a2 = h * omega * a1;
  float a3 = 1.0f / (1.0f + a2);
  return {omega / a1, a2 * a3, a3};
}

StepContext MakeStepContext(float dt, const SolverSettings& settings) {
  StepContext context;
  context.dt = dt;
  context.settings = settings;
  int subSteps = settings.mode == SolverMode::Classic ? 1 : settings.subSteps;
  context.h = dt / static_cast<float>(subSteps);
  context.invH = 1.0f / context.h;
  float hertz = std::min(settings.contactHertz, MaxContactHertz(context));
  float staticHertz = std::min(settings.staticContactScale * hertz, MaxSoftHertz(context));
  context.contactSoftness = MakeSoftness(hertz, settings.contactDampingRatio, context.h);
  context.staticSoftness = MakeSoftness(staticHertz, settings.contactDampingRatio, context.h);
  return context;
}

// Kept, impulses solved for velocities a cap has since cut are warm-started again every sub-step
// with nothing to absorb them and grow without bound (measured with the caps alone: 1e26 N s inside a
// revolute joint between two calm-looking bodies, then NaN; 7 of 2000 random joints went non-finite,
// none with this).
void DropCappedImpulses(SolverArrays& solver, std::span<const ContactInput> inputs) {
  auto capped = [&solver](int index) { return index >= 0 && solver.params[index].capped; };
  // After the lanes' store the manifolds hold the coloured contacts' impulses, and their constraints
  // do not (StoreContactGroups writes only those a later pass reads): the cut goes to both.
  const bool inManifolds = solver.manifoldsHoldLaneImpulses && !inputs.empty();
  for (std::size_t i = 0; i < solver.contacts.size(); ++i) {
    ContactConstraint& c = solver.contacts[i];
    if (!capped(c.indexA) && !capped(c.indexB)) continue;
    for (int j = 0; j < c.pointCount; ++j) c.points[j].normalImpulse = c.points[j].tangentImpulse = 0.0f;
    if (!inManifolds) continue;
    Manifold& manifold = *inputs[i].manifold;
    for (int j = 0; j < c.pointCount; ++j)
      manifold.points[j].normalImpulse = manifold.points[j].tangentImpulse = 0.0f;
  }
  for (JointConstraint& c : solver.joints) {
    if (capped(c.indexA) || capped(c.indexB)) c.impulses = {};
  }
  WithGraphs(solver, [&solver](auto& graph, auto& hinges) {
    DropCappedContactGroups(graph, solver.params);
    DropCappedHingeGroups(hinges, solver.params);
  });
  for (BodyParams& p : solver.params) p.capped = false;
  // Before the lanes' store (a cap inside the sub-steps) the store writes the cut lanes; without the
  // inputs the constraints hold every impulse, and StoreContactImpulses copies them all.
  if (!inManifolds) solver.manifoldsHoldLaneImpulses = false;
}

namespace {

// The soft mode's sub-steps on lane type F: contacts colour by colour, four or eight at a time
// (contact_graph.h), then the overflow one by one; plain hinges likewise (hinge_graph.h, built by
// PrepareJoints), then the other joints.
template <class F>
void RunSoftSubSteps(SolverArrays& solver, const StepContext& context, ContactGraph<F>& graph,
                     HingeGraph<F>& hinges, std::span<const ContactInput> inputs) {
  const SolverSettings& settings = context.settings;
  const int bodyCount = static_cast<int>(solver.states.size());
  // The relax pass's supports (RelaxNormalRows) and the colouring read only the keys and write their
  // own arrays, and each is serial: on two workers they run side by side (tumbler colours every step,
  // and the two are a serial 0.04 ms of its step).
  const auto levels = [&solver, &settings] {
    if (settings.enableRelax) {
      ComputeSupportLevels(solver.contactKeys, solver.params, solver.levels, solver.levelScratch);
    } else {
      solver.levels.clear();
    }
  };
  const auto color = [&] {
    ColorContactGraph(std::span<const ContactKey>(solver.contactKeys), bodyCount, graph, context.tasks,
                      solver.contactKeysVersion);
  };
  if (NeedsColoring(graph, bodyCount, context.tasks, solver.contactKeysVersion)) {
    RunSideBySide(context.tasks, levels, color);
  } else {
    levels();  // the colouring is kept
  }
  PackContactGraph(std::span<const ContactConstraint>(solver.contacts), std::span<const int>(solver.levels),
                   bodyCount, graph, context.tasks);
  if (HasWorkers(context.tasks)) {  // the same passes as below, as stages the workers share
    solver.stages.Run(solver, context, *context.tasks);
    StoreContactGroups(graph, solver.contactKeys, solver.contacts, context.tasks, inputs);
    solver.manifoldsHoldLaneImpulses = !inputs.empty();
    return;
  }
  // The graph's static slot (contact_graph.h), after the bodies while the passes run: the integrators
  // and the scalar solvers go by params.size() and solver indices, and never see it.
  solver.states.push_back(BodyState{});
  for (int i = 0; i < settings.subSteps; ++i) {
    IntegrateVelocities(solver, context);
    if (settings.enableWarmStarting) {
      WarmStartHingeGroups(hinges, solver.states);
      WarmStartJoints(solver, hinges.scalar);
      WarmStartContactGroups(graph, solver.states);
      WarmStartContacts(solver, graph.overflow);
    }
    SolveHingeGroups<F, true>(hinges, solver.states);
    SolveJoints(solver, context, JointPass::Biased, hinges.scalar);
    SolveContactGroups<F, true>(graph, solver.states, context);
    SolveContacts(solver, context, graph.overflow);
    if (IntegratePositions(solver, context)) DropCappedImpulses(solver);
    ApplyMotionLocks(solver);
    if (settings.enableRelax) {
      SolveHingeGroups<F, false>(hinges, solver.states);
      SolveJoints(solver, context, JointPass::Relax, hinges.scalar);
      SolveContactGroups<F, false>(graph, solver.states, context);
      RelaxContacts(solver, context, graph.overflow);
    }
  }
  solver.states.pop_back();
  // The hinges' lanes are read by StoreJointImpulses.
  StoreContactGroups(graph, solver.contactKeys, solver.contacts, nullptr, inputs);
  solver.manifoldsHoldLaneImpulses = !inputs.empty();
}

}  // namespace

// Joints go before contacts in every pass: contacts, solved last, then have the final say on
// non-penetration, which is the error players notice first.
void RunSubSteps(SolverArrays& solver, const StepContext& context, std::span<const ContactInput> inputs) {
  const SolverSettings& settings = context.settings;
  if (settings.mode == SolverMode::Classic) {
    IntegrateVelocities(solver, context);
    if (settings.enableWarmStarting) {
      WarmStartJoints(solver);
      WarmStartContacts(solver);
    }
    for (int i = 0; i < settings.classicIterations; ++i) {
      SolveJoints(solver, context, JointPass::Classic);
      SolveContactsClassic(solver, context);
    }
    if (IntegratePositions(solver, context)) DropCappedImpulses(solver);
    for (int i = 0; i < kClassicPositionIterations; ++i) {
      SolveJointPositions(solver, context);
      SolveContactPositionsClassic(solver, context);
    }
    ApplyMotionLocks(solver);
    return;
  }
  WithGraphs(solver,
             [&](auto& graph, auto& hinges) { RunSoftSubSteps(solver, context, graph, hinges, inputs); });
}

}  // namespace mk
