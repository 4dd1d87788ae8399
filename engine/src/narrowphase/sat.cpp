// Polygon SAT (stub, being written).
#include "minkowski/distance.h"
