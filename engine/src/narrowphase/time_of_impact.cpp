// SPDX-License-Identifier: MIT
// Time of impact by conservative advancement (Mirtich, "Impulse-based dynamic simulation of rigid
// body systems", 1996), with the approach bound derived below.
//
// Why the step is safe: at fraction t GJK gives the distance d and the unit normal n from A to B. The
// separation of the two shapes measured along the fixed axis n, s(u) = min over B of n.x - max over A
// of n.x, is at most the true distance at every u, and equals d at u = t. A point of a body moves with
// velocity dc + da x r per unit fraction (dc = c2 - c1, da = a2 - a1, r its arm from the centre of
// mass), so s falls at most at mu = n.(dcA - dcB) + |daA| RA + |daB| RB, R being the farthest core
// point from the centre of mass (the radius is round, turning does not move it). Hence the distance
// stays above target until t + (d - target) / mu, and advancing there never steps over a contact.
// The distance shrinks towards the target at every step; the loop stops within the tolerance.
#include "minkowski/time_of_impact.h"

#include <cmath>

namespace mk {

namespace {

bool Finite(float x) { return std::isfinite(x); }
bool Finite(Vec2 v) { return Finite(v.x) && Finite(v.y); }

bool ValidSweep(const Sweep& s) {
  return Finite(s.localCenter) && Finite(s.c1) && Finite(s.c2) && Finite(s.a1) && Finite(s.a2);
}

bool ValidProxy(const ShapeProxy& p) {
  return p.points != nullptr && p.count > 0 && p.count <= kMaxPolygonVertices && Finite(p.radius) &&
         p.radius >= 0.0f;
}

// Farthest core point from the centre of mass (m).
float ArmLength(const ShapeProxy& proxy, Vec2 localCenter) {
  float r2 = 0.0f;
  for (int i = 0; i < proxy.count; ++i) {
    const float d2 = DistanceSquared(proxy.points[i], localCenter);
    r2 = d2 > r2 ? d2 : r2;
  }
  return std::sqrt(r2);
}

}  // namespace

Transform GetSweepTransform(const Sweep& sweep, float t) {
  Transform xf;
  xf.q = MakeRot(sweep.a1 + t * (sweep.a2 - sweep.a1));
  const Vec2 center = sweep.c1 + t * (sweep.c2 - sweep.c1);
  xf.p = center - Rotate(xf.q, sweep.localCenter);
  return xf;
}

ToiOutput TimeOfImpact(const ToiInput& input) {
  ToiOutput out;
  const bool valid = ValidProxy(input.proxyA) && ValidProxy(input.proxyB) && ValidSweep(input.sweepA) &&
                     ValidSweep(input.sweepB) && input.maxFraction >= 0.0f && input.maxFraction <= 1.0f &&
                     Finite(input.target) && input.target >= 0.0f && Finite(input.tolerance) &&
                     input.tolerance > 0.0f;
  if (!valid) return out;  // InvalidInput, fraction 0

  const Sweep& sA = input.sweepA;
  const Sweep& sB = input.sweepB;
  const Vec2 dcA = sA.c2 - sA.c1, dcB = sB.c2 - sB.c1;
  const float angularBound = std::fabs(sA.a2 - sA.a1) * ArmLength(input.proxyA, sA.localCenter) +
                             std::fabs(sB.a2 - sB.a1) * ArmLength(input.proxyB, sB.localCenter);
  const float radii = input.proxyA.radius + input.proxyB.radius;
  const float tMax = input.maxFraction;

  DistanceInput distanceInput{input.proxyA, input.proxyB, {}, {}};
  // A shape that does not move (a static one) has the same transform at every fraction: once.
  const bool stillA = sA.c1.x == sA.c2.x && sA.c1.y == sA.c2.y && sA.a1 == sA.a2;
  if (stillA) distanceInput.transformA = GetSweepTransform(sA, 0.0f);
  SimplexCache cache;  // warm start: the closest features change little between advancement steps
  float t = 0.0f;
  for (int iteration = 0;; ++iteration) {
    if (!stillA) distanceInput.transformA = GetSweepTransform(sA, t);
    distanceInput.transformB = GetSweepTransform(sB, t);
    const DistanceOutput distance = ShapeDistance(distanceInput, &cache);
    out.iterations = iteration;
    out.fraction = t;
    if (distance.status == DistanceStatus::InvalidInput) {  // float overflow on huge coordinates
      out.fraction = 0.0f;
      out.status = ToiStatus::InvalidInput;
      return out;
    }
    const float d = distance.coresOverlap ? -radii : distance.coreDistance - radii;
    out.separation = d;
    if (d < input.target + input.tolerance) {
      out.status = t == 0.0f && d < input.target - input.tolerance ? ToiStatus::Overlapping : ToiStatus::Hit;
      return out;
    }
    // Approach speed bound along the normal from A to B, per unit fraction.
    const float mu = Dot(distance.normal, dcA - dcB) + angularBound;
    if (!(mu > 0.0f)) {  // nothing can approach: the separation along n never falls
      out.fraction = tMax;
      out.status = ToiStatus::Separated;
      return out;
    }
    const float next = t + (d - input.target) / mu;
    if (!(next < tMax)) {
      out.fraction = tMax;
      out.status = ToiStatus::Separated;
      return out;
    }
    if (iteration + 1 >= kToiMaxIterations) {
      out.status = ToiStatus::IterationCap;  // t is the last safe fraction
      return out;
    }
    if (!(next > t)) {  // the step fell below float resolution of t: as close as t can tell
      out.status = ToiStatus::Hit;
      return out;
    }
    t = next;
  }
}

}  // namespace mk
