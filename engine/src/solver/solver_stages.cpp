// SPDX-License-Identifier: MIT
// SolverStages (solver_stages.h): RunSubSteps's soft sub-steps as stages that several workers run.
#include "solver/solver_stages.h"

#include "core/parallel.h"
#include "core/spin_wait.h"
#include "solver/body_integrator.h"
#include "solver/contact_solver.h"
#include "solver/joint_solver.h"
#include "solver/solver.h"

#include <algorithm>

namespace mk {

void SolverStages::AddBodyStage(StageKind kind, int bodyCount, int workerCount) {
  SolverStage& s = stages_.emplace_back();
  s.kind = kind;
  s.itemCount = bodyCount;
  s.blockSize = BlockSize(bodyCount, workerCount, kMinBodiesPerBlock);
  s.blockCount = std::max(1, (bodyCount + s.blockSize - 1) / s.blockSize);
}

void SolverStages::AddItemStage(StageKind kind, int color, int first, int count, int blockSize) {
  stages_.push_back({.kind = kind,
                     .color = color,
                     .first = first,
                     .itemCount = count,
                     .blockSize = blockSize,
                     .blockCount = (count + blockSize - 1) / blockSize});
}

// One stage per colour that has groups, in colour order, with the blocks AssignBlockStaticSlots cut.
void SolverStages::AddColorStages(StageKind kind, const SolverArrays& solver) {
  const bool hinges =
      kind == StageKind::WarmStartHinges || kind == StageKind::SolveHinges || kind == StageKind::RelaxHinges;
  WithGraphs(solver, [&](const auto& graph, const auto& hingeGraph) {
    for (int c = 0; c < kGraphColorCount; ++c) {
      const int first = hinges ? 0 : graph.colorGroupStart[c];
      const int count =
          hinges ? static_cast<int>(hingeGraph.groups[c].size()) : graph.colorGroupStart[c + 1] - first;
      if (count != 0)
        AddItemStage(kind, c, first, count, hinges ? hingeGraph.colorBlockSize[c] : graph.colorBlockSize[c]);
    }
  });
}

// One stage per colour of scalar joints that has some, cut into blocks of at least kMinJointsPerBlock,
// then one for those without a colour (one block: they may share bodies).
void SolverStages::AddScalarJointStages(StageKind kind, const SolverArrays& solver, int workerCount) {
  WithGraphs(solver, [&](const auto&, const auto& hinges) {
    for (int c = 0; c <= hinges.kScalarOverflow; ++c) {
      const int first = hinges.scalarColorStart[c];
      const int count = hinges.scalarColorStart[c + 1] - first;
      if (count == 0) continue;
      const bool overflow = c == hinges.kScalarOverflow;
      AddItemStage(kind, c, first, count,
                   overflow ? count : BlockSize(count, workerCount, kMinJointsPerBlock));
    }
  });
}

// Marks each run of consecutive one-block stages on its first (SolverStage::runLength): WorkerLoop
// runs such a run on the worker that claims its first stage, and moves every worker past it at once.
void SolverStages::FuseOneBlockRuns() {
  const int count = static_cast<int>(stages_.size());
  for (int i = 0; i < count;) {
    int end = i + 1;
    if (stages_[static_cast<std::size_t>(i)].blockCount == 1) {
      while (end < count && stages_[static_cast<std::size_t>(end)].blockCount == 1) ++end;
    }
    stages_[static_cast<std::size_t>(i)].runLength = end - i;
    i = end;
  }
}

// RunSubSteps's soft passes, in its order (solver.cpp); empty passes are left out.
void SolverStages::BuildStages(const SolverArrays& solver, const StepContext& context, int workerCount) {
  const SolverSettings& settings = context.settings;
  const int bodyCount = static_cast<int>(solver.params.size());
  const bool overflow = WithGraphs(solver, [](const auto& g, const auto&) { return !g.overflow.empty(); });
  auto single = [this](StageKind kind) { stages_.push_back({.kind = kind, .itemCount = 1}); };
  stages_.clear();
  for (int i = 0; i < settings.subSteps; ++i) {
    AddBodyStage(StageKind::IntegrateVelocities, bodyCount, workerCount);
    if (settings.enableWarmStarting) {
      AddColorStages(StageKind::WarmStartHinges, solver);
      AddScalarJointStages(StageKind::WarmStartJoints, solver, workerCount);
      AddColorStages(StageKind::WarmStartContacts, solver);
      if (overflow) single(StageKind::WarmStartOverflow);
    }
    AddColorStages(StageKind::SolveHinges, solver);
    AddScalarJointStages(StageKind::SolveJoints, solver, workerCount);
    AddColorStages(StageKind::SolveContacts, solver);
    if (overflow) single(StageKind::SolveOverflow);
    AddBodyStage(StageKind::IntegratePositions, bodyCount, workerCount);
    single(StageKind::AfterPositions);
    if (settings.enableRelax) {
      AddColorStages(StageKind::RelaxHinges, solver);
      AddScalarJointStages(StageKind::RelaxJoints, solver, workerCount);
      AddColorStages(StageKind::RelaxContacts, solver);
      if (overflow) single(StageKind::RelaxOverflow);
    }
  }
  FuseOneBlockRuns();
}

namespace {

// Entries [begin, end) of the scalar joints' list.
template <class F>
std::span<const int> ScalarRange(const HingeGraph<F>& hinges, int begin, int end) {
  return std::span<const int>(hinges.scalar)
      .subspan(static_cast<size_t>(begin), static_cast<size_t>(end - begin));
}

}  // namespace

void SolverStages::RunBlock(const SolverStage& stage, int block) {
  WithGraphs(*solver_, [&](auto& graph, auto& hinges) { RunBlockOn(stage, block, graph, hinges); });
}

// RunBlock on the graphs of lane type F.
template <class F>
void SolverStages::RunBlockOn(const SolverStage& stage, int block, ContactGraph<F>& graph,
                              HingeGraph<F>& hinges) {
  SolverArrays& solver = *solver_;
  const StepContext& context = *context_;
  const int begin = block * stage.blockSize;
  const int end = std::min(stage.itemCount, begin + stage.blockSize);
  const std::span<BodyState> states(solver.states);
  const int staticSlot = graph.staticSlot + block;  // the block's own (AssignBlockStaticSlots)
  const int first = stage.first;
  switch (stage.kind) {
    case StageKind::IntegrateVelocities:
      IntegrateVelocities(solver, context, begin, end);
      break;
    case StageKind::WarmStartHinges:
      WarmStartHingeGroupRange(hinges, states, stage.color, begin, end, staticSlot);
      break;
    case StageKind::SolveHinges:
      SolveHingeGroupRange<F, true>(hinges, states, stage.color, begin, end, staticSlot);
      break;
    case StageKind::RelaxHinges:
      SolveHingeGroupRange<F, false>(hinges, states, stage.color, begin, end, staticSlot);
      break;
    case StageKind::WarmStartJoints:
      WarmStartJoints(solver, ScalarRange(hinges, first + begin, first + end));
      break;
    case StageKind::SolveJoints:
      SolveJoints(solver, context, JointPass::Biased, ScalarRange(hinges, first + begin, first + end));
      break;
    case StageKind::RelaxJoints:
      SolveJoints(solver, context, JointPass::Relax, ScalarRange(hinges, first + begin, first + end));
      break;
    case StageKind::WarmStartContacts:
      WarmStartContactGroupRange(graph, states, first + begin, first + end, staticSlot);
      break;
    case StageKind::SolveContacts:
      SolveContactGroupRange<F, true>(graph, states, context, first + begin, first + end, staticSlot);
      break;
    case StageKind::RelaxContacts:
      SolveContactGroupRange<F, false>(graph, states, context, first + begin, first + end, staticSlot);
      break;
    case StageKind::WarmStartOverflow:
      WarmStartContacts(solver, graph.overflow);
      break;
    case StageKind::SolveOverflow:
      SolveContacts(solver, context, graph.overflow);
      break;
    case StageKind::RelaxOverflow:
      RelaxContacts(solver, context, graph.overflow);
      break;
    case StageKind::IntegratePositions:
      if (IntegratePositions(solver, context, begin, end)) capped_.store(true, std::memory_order_relaxed);
      break;
    case StageKind::AfterPositions:
      // The blocks' flags reach here through the stage's hand-over (release / acquire on current_).
      if (capped_.exchange(false, std::memory_order_relaxed)) DropCappedImpulses(solver);
      ApplyMotionLocks(solver);
      break;
  }
}

// Takes `block` of `stage` if no worker has: a load first, so that a worker scanning past the other
// workers' blocks does not write their lines.
bool SolverStages::ClaimBlock(const SolverStage& stage, int block) {
  std::atomic<int>& claim = claims_[static_cast<std::size_t>(stage.firstClaim + block)];
  return claim.load(std::memory_order_relaxed) == 0 && claim.exchange(1, std::memory_order_relaxed) == 0;
}

// Every worker's loop (solver_stages.h): claim a block of the current stage, starting from this
// worker's share, run it; the worker that completes a stage's last block publishes the next stage
// (release), which the others read (acquire), so every block of a stage sees every write of the
// stages before it. `slot`: 0 for the calling thread, 1.. for the task's items.
void SolverStages::WorkerLoop(int slot) {
  const int stageCount = static_cast<int>(stages_.size());
  int stage = current_.load(std::memory_order_acquire);
  while (stage < stageCount) {
    Sync& sync = syncs_[static_cast<std::size_t>(stage)];
    const SolverStage& s = stages_[static_cast<std::size_t>(stage)];
    const int start = static_cast<int>(static_cast<long long>(slot) * s.blockCount / workerCount_);
    for (int k = 0; k < s.blockCount; ++k) {
      const int block = start + k < s.blockCount ? start + k : start + k - s.blockCount;
      if (!ClaimBlock(s, block)) continue;
      if (s.runLength > 1) {  // the run's stages, each of one block, here in order (FuseOneBlockRuns)
        for (int r = 0; r < s.runLength; ++r) RunBlock(stages_[static_cast<std::size_t>(stage + r)], 0);
        Publish(stage + s.runLength);
        break;
      }
      RunBlock(s, block);
      if (sync.done.fetch_add(1, std::memory_order_acq_rel) + 1 == s.blockCount)
        Publish(RunOneBlockRunAfter(stage));
    }
    // Every block is taken: wait for the workers still running one to finish the stage.
    SpinWait spin;
    int now = current_.load(std::memory_order_acquire);
    while (now == stage) {
      spin.PauseOrYield();
      now = current_.load(std::memory_order_acquire);
    }
    stage = now;
  }
}

// Called by the worker that completed `stage`'s last block, which has seen every write of it (the done
// count's acquire): when a run of one-block stages comes next, it runs the run here rather than hand
// the run to whichever worker claims it first after a hand-over (one hand-over fewer: after each
// sub-step's IntegratePositions, AfterPositions; on tumbler also the drum's colours after the large
// ones). Returns the stage to publish.
int SolverStages::RunOneBlockRunAfter(int stage) {
  const std::size_t next = static_cast<std::size_t>(stage) + 1;
  if (next >= stages_.size() || stages_[next].blockCount != 1) return stage + 1;
  const int run = stages_[next].runLength;  // next is the first of its run (FuseOneBlockRuns)
  for (int r = 0; r < run; ++r) RunBlock(stages_[next + static_cast<std::size_t>(r)], 0);
  return stage + 1 + run;
}

// Moves every worker on to `stage` (release: its blocks see every write of the stages before).
void SolverStages::Publish(int stage) {
  handOvers_.store(handOvers_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  current_.store(stage, std::memory_order_release);
}

void SolverStages::WorkerTask(int begin, int end, int /*worker*/, void* context) {
  for (int i = begin; i < end; ++i) static_cast<SolverStages*>(context)->WorkerLoop(i + 1);
}

// Zeroes every stage's done count and block claims, growing their arrays when this step has more.
void SolverStages::PrepareCounters() {
  if (syncCapacity_ < stages_.size()) {
    syncCapacity_ = stages_.size() + stages_.size() / 2;
    syncs_ = std::make_unique<Sync[]>(syncCapacity_);
  }
  int claims = 0;
  for (std::size_t i = 0; i < stages_.size(); ++i) {
    syncs_[i].done.store(0, std::memory_order_relaxed);
    stages_[i].firstClaim = claims;
    claims += stages_[i].blockCount;
  }
  const auto claimCount = static_cast<std::size_t>(claims);
  if (claimCapacity_ < claimCount) {
    claimCapacity_ = claimCount + claimCount / 2;
    claims_ = std::make_unique<std::atomic<int>[]>(claimCapacity_);
  }
  for (std::size_t i = 0; i < claimCount; ++i) claims_[i].store(0, std::memory_order_relaxed);
}

void SolverStages::Run(SolverArrays& solver, const StepContext& context, const TaskSystem& tasks) {
  // The workers wait for each other at every stage (a hundred or more a sub-step). With more of them
  // than the machine has hardware threads, the system stops some while they hold a block, and the
  // others wait for it: on two cores, 8 workers ran large_pyramid's step 1.5 to 1.9 times as long as
  // 2 did, and a fifth less with this limit (docs/benchmarks.md, "More workers than cores"). So the
  // loop holds at most HardwareThreads() workers, cut for that many; no result depends on the count.
  const int workerCount = std::min(tasks.workerCount, HardwareThreads());
  const std::size_t bodyCount = solver.params.size();
  const int slots = WithGraphs(solver, [workerCount, &tasks](auto& graph, auto& hinges) {
    return std::max(AssignBlockStaticSlots(graph, workerCount, &tasks),
                    AssignHingeBlockStaticSlots(hinges, workerCount, &tasks));
  });
  solver.states.resize(bodyCount + static_cast<std::size_t>(slots), BodyState{});
  BuildStages(solver, context, workerCount);
  PrepareCounters();
  workerCount_ = workerCount;
  solver_ = &solver;
  context_ = &context;
  capped_.store(false, std::memory_order_relaxed);
  handOvers_.store(0, std::memory_order_relaxed);
  current_.store(0, std::memory_order_release);
  // workerCount - 1 helpers, and this thread: it alone would finish the stages, so a task system that
  // runs the helpers late, serially or here inside enqueue only costs speed.
  void* task =
      workerCount > 1 ? tasks.enqueueTask(&WorkerTask, workerCount - 1, 1, this, tasks.userContext) : nullptr;
  WorkerLoop(0);
  if (task != nullptr) tasks.finishTask(task, tasks.userContext);
  solver.states.resize(bodyCount);
}

}  // namespace mk
