// World API for joints (stub: every entry is defined so callers link; the solver comes next).
#include "minkowski/world.h"

#include "minkowski/assert.h"
#include "world/world_state.h"

namespace mk {

JointId World::CreateJoint(const RevoluteJointDef&) { return {}; }
JointId World::CreateJoint(const PrismaticJointDef&) { return {}; }
JointId World::CreateJoint(const DistanceJointDef&) { return {}; }
JointId World::CreateJoint(const WeldJointDef&) { return {}; }
JointId World::CreateJoint(const WheelJointDef&) { return {}; }
JointId World::CreateJoint(const MouseJointDef&) { return {}; }
bool World::DestroyJoint(JointId) { return false; }
bool World::IsValid(JointId) const { return false; }
JointType World::GetJointType(JointId) const { return JointType::Revolute; }
Vec2 World::GetJointReactionForce(JointId) const { return {0.0f, 0.0f}; }
float World::GetJointReactionTorque(JointId) const { return 0.0f; }
float World::GetRevoluteAngle(JointId) const { return 0.0f; }
float World::GetPrismaticTranslation(JointId) const { return 0.0f; }
float World::GetDistanceJointLength(JointId) const { return 0.0f; }
void World::SetMotorSpeed(JointId, float) {}
void World::SetMouseTarget(JointId, Vec2) {}

}  // namespace mk
