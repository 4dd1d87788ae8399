// GJK distance and overlap (stub, being written).
#include "minkowski/distance.h"

namespace mk {

DistanceOutput ShapeDistance(const DistanceInput&, SimplexCache*, GjkHistory*) { return {}; }
bool CoresOverlap(const DistanceInput&, SimplexCache*) { return false; }
bool ShapesOverlap(const DistanceInput&, SimplexCache*) { return false; }
Simplex MakeSimplexFromCache(const DistanceInput&, const SimplexCache&) { return {}; }
SeparationOutput ShapeSeparation(const DistanceInput&, SimplexCache*) { return {}; }

}  // namespace mk
