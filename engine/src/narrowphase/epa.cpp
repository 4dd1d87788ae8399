// EPA penetration (stub, being written).
#include "minkowski/distance.h"

namespace mk {

EpaCounters GetEpaCounters() { return {}; }
void ResetEpaCounters() {}
PenetrationOutput ShapePenetration(const DistanceInput&, const SimplexCache*, EpaHistory*) { return {}; }

}  // namespace mk
