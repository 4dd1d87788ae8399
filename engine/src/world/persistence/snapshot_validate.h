// SPDX-License-Identifier: MIT
// Validation of a parsed snapshot (RestoreSnapshot's second half): every index in range, every list
// consistent, every number finite and within the bounds the solver needs, every geometry valid.
// Only a state that passes is moved into a World.
#pragma once

#include "minkowski/snapshot.h"
#include "world/world_state.h"

#include <vector>

namespace mk {

/// Checks `state`, as parsed from a snapshot, and clears the slots its id pools hold dead (so a dead
/// slot's bytes are never trusted). `geometryValid[s]` is the parser's verdict on shape slot s's
/// geometry. Returns the first failure (SnapshotError::Inconsistent or InvalidValue, with the name of
/// the check) or success.
SnapshotResult ValidateSnapshotState(WorldState& state, const std::vector<bool>& geometryValid);

}  // namespace mk
