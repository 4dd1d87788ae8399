// SPDX-License-Identifier: MIT
// Internal: the soft step's sub-steps on several workers (issue 31; the idea of Box2D v3's solver
// stages, Catto 2024).
//
// RunSubSteps's passes become a list of stages: integrate velocities, each colour of hinges, each
// colour of the other joints, each colour of contacts, the overflow, integrate positions, ... Each
// stage is cut into blocks (a range of bodies, of a colour's groups or joints; the overflows of
// contacts and of joints are one block) that may run at the same time: a colour's groups and joints
// share no moving body, and the integrators touch one body each. Every worker runs the same loop:
// claim a block of the current stage that no one has taken, run it, and the worker that finishes a
// stage's last block moves every worker on to the next stage. No worker leads, so nobody waits for a
// worker the task system has not started: run one after the other, or all on one thread, the first
// worker does every stage and the others find nothing left.
//
// Worker k of n looks for blocks from the k-th n-th of each stage on (then wraps round), so that
// without delays it takes the same share of every stage: in every sub-step and pass the same colour
// slices, hence mostly the same bodies, whose states then stay in its core's cache instead of moving
// between cores at each stage (Box2D v3's solver starts each worker at its own block the same way).
//
// The loop holds at most HardwareThreads() workers (core/parallel.h), however many the task system
// has: workers that wait for each other at every stage lose more than they give when the system has
// to stop some of them to run the others.
//
// A stage of one block keeps every other worker waiting while one runs it, and a run of them (a crowd
// round one body: tumbler's drum takes a colour of its own for each of its contacts, up to 24, each a
// stage of one group) cost a hand-over each: the worker that takes the first of a run of one-block
// stages runs them all in order and hands over once (FuseOneBlockRuns; tumbler: 324 stages a step,
// 232 of one block, 112 hand-overs after). A run that follows a stage of several blocks is run by the
// worker that completes that stage, before it hands over (RunOneBlockRunAfter): one hand-over for
// both. The order of the work is unchanged.
//
// The results are RunSubSteps's, bit for bit, for any worker count: each body sees its constraints in
// the same order (colour by colour, then the overflow), and a block's only shared write, the graph's
// static slot, is the block's own (AssignBlockStaticSlots).
#pragma once

#include "minkowski/task_system.h"
#include "solver/solver_types.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace mk {

struct SolverArrays;  // solver.h
template <class F>
struct ContactGraph;  // contact_graph.h
template <class F>
struct HingeGraph;  // hinge_graph.h

enum class StageKind : std::uint8_t {
  IntegrateVelocities,
  WarmStartHinges,
  SolveHinges,
  RelaxHinges,
  WarmStartJoints,  // a colour of the joints the hinge graph leaves to the scalar path, or their overflow
  SolveJoints,
  RelaxJoints,
  WarmStartContacts,
  SolveContacts,
  RelaxContacts,
  WarmStartOverflow,
  SolveOverflow,
  RelaxOverflow,
  IntegratePositions,
  AfterPositions,  // a speed cap's impulses dropped (DropCappedImpulses), the motion locks
};

struct SolverStage {
  StageKind kind = StageKind::IntegrateVelocities;
  int color = 0;      // the hinge, joint and contact stages' colour
  int first = 0;      // the first item: a group index of graph.groups for contacts, an entry of
                      // hinges.scalar for the scalar joints, else 0
  int itemCount = 0;  // bodies, groups or joints
  int blockSize = 1;
  int blockCount = 1;
  int firstClaim = 0;  // its blocks' claim flags: SolverStages::claims_[firstClaim, + blockCount)
  int runLength = 1;   // > 1: the first of that many one-block stages one worker runs in a row
};

/// The stage list and the workers' shared counters, reused from step to step (no allocation once the
/// largest step has been seen).
class SolverStages {
 public:
  SolverStages() = default;
  // Scratch for one Run: a copy (of SolverArrays, as the solver tests make) starts empty.
  SolverStages(const SolverStages&) {}
  SolverStages& operator=(const SolverStages&) { return *this; }

  /// The soft mode's sub-steps (RunSubSteps) on `tasks`'s workers, at most HardwareThreads() of them;
  /// the graph and hinges are built.
  void Run(SolverArrays& solver, const StepContext& context, const TaskSystem& tasks);

  /// The last Run's stages, in order (what tests and profiles read).
  std::span<const SolverStage> Stages() const { return stages_; }
  /// How many times the last Run moved the workers on to a later stage (its hand-overs).
  int HandOvers() const { return handOvers_.load(std::memory_order_relaxed); }

 private:
  struct alignas(64) Sync {
    std::atomic<int> done{0};  // the stage's blocks run
  };

  void BuildStages(const SolverArrays& solver, const StepContext& context, int workerCount);
  void AddScalarJointStages(StageKind kind, const SolverArrays& solver, int workerCount);
  void AddItemStage(StageKind kind, int color, int first, int count, int blockSize);
  void AddColorStages(StageKind kind, const SolverArrays& solver);
  void AddBodyStage(StageKind kind, int bodyCount, int workerCount);
  void FuseOneBlockRuns();
  int RunOneBlockRunAfter(int stage);
  void Publish(int stage);
  void RunBlock(const SolverStage& stage, int block);
  template <class F>
  void RunBlockOn(const SolverStage& stage, int block, ContactGraph<F>& graph, HingeGraph<F>& hinges);
  void WorkerLoop(int slot);
  bool ClaimBlock(const SolverStage& stage, int block);
  void PrepareCounters();
  static void WorkerTask(int begin, int end, int worker, void* context);

  std::vector<SolverStage> stages_;
  std::unique_ptr<Sync[]> syncs_;
  std::size_t syncCapacity_ = 0;
  std::unique_ptr<std::atomic<int>[]> claims_;  // per block of every stage: 1 once a worker took it
  std::size_t claimCapacity_ = 0;
  int workerCount_ = 1;
  alignas(64) std::atomic<int> current_{0};  // the stage every worker is on; stages_.size(): done
  std::atomic<int> handOvers_{0};    // beside current_: the worker that publishes holds the line already
  std::atomic<bool> capped_{false};  // an IntegratePositions block hit a speed cap
  SolverArrays* solver_ = nullptr;
  const StepContext* context_ = nullptr;
};

}  // namespace mk
