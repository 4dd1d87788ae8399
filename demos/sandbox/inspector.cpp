// SPDX-License-Identifier: MIT
#include "inspector.h"

#include "minkowski/joint_api.h"
#include "panel_text.h"

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

namespace mk::sandbox {
namespace {

constexpr int kIdWidth = 7;      // body indices up to 9,999,999 in full
constexpr int kFigureWidth = 9;  // "-1234.567"

std::string Count(size_t n) { return Trimmed(FixedNumber(static_cast<double>(n), kIdWidth, 0)); }
std::string Id(BodyId body) { return Count(body.index1); }
std::string Figure(double value, int decimals = 3) { return FixedNumber(value, kFigureWidth, decimals); }

InspectedContact FromBody(const World& world, BodyId body, const ContactData& data) {
  InspectedContact c;
  const bool isA = world.GetBody(data.shapeA) == body;
  c.other = world.GetBody(isA ? data.shapeB : data.shapeA);
  c.points = data.manifold.pointCount;
  c.normal = isA ? data.manifold.normal : -data.manifold.normal;  // the manifold's runs from A to B
  c.separation = data.manifold.points[0].separation;
  for (int i = 0; i < c.points; ++i) {
    c.separation = std::min(c.separation, data.manifold.points[i].separation);
    c.normalImpulse += data.manifold.points[i].normalImpulse;
  }
  return c;
}

std::vector<InspectedContact> Contacts(const World& world, BodyId body) {
  std::vector<ContactData> data(static_cast<size_t>(world.GetBodyContactCapacity(body)));
  data.resize(static_cast<size_t>(world.GetBodyContactData(body, data)));
  std::vector<InspectedContact> contacts;
  for (const ContactData& d : data) contacts.push_back(FromBody(world, body, d));
  return contacts;
}

std::vector<InspectedJoint> Joints(const World& world, BodyId body) {
  std::vector<JointId> ids(static_cast<size_t>(world.GetJointCount(body)));
  ids.resize(static_cast<size_t>(world.GetJoints(body, ids)));
  std::vector<InspectedJoint> joints;
  for (JointId id : ids) {
    const BodyId a = GetJointBodyA(world, id), b = GetJointBodyB(world, id);
    const BodyId other = a.IsNull() ? BodyId{} : (a == body ? b : a);
    joints.push_back({id, world.GetJointType(id), other, world.GetJointReactionForce(id)});
  }
  return joints;
}

const char* TypeName(BodyType type) {
  switch (type) {
    case BodyType::Static:
      return "static";
    case BodyType::Kinematic:
      return "kinematic";
    default:
      return "dynamic";
  }
}

// At most `listed` rows of `items`, then how many were left out.
template <class Item, class Row>
void AddRows(std::vector<std::string>& lines, const std::vector<Item>& items, size_t listed, Row row) {
  for (size_t i = 0; i < items.size() && i < listed; ++i) lines.push_back(row(items[i]));
  if (items.size() > listed) lines.push_back("  and " + Count(items.size() - listed) + " more");
}

std::string ContactRow(const InspectedContact& c) {
  return "  body " + FixedNumber(c.other.index1, kIdWidth, 0) + "  " + std::to_string(c.points) + " pt  sep" +
         Figure(c.separation, 4) + " m";
}

std::string JointRow(const InspectedJoint& j, const char* typeName) {
  const std::string other = j.other.IsNull() ? "  world" : FixedNumber(j.other.index1, kIdWidth, 0);
  return "  " + PaddedTo(typeName, 9) + " body " + other + " F" + Figure(Length(j.force), 1) + " N";
}

}  // namespace

const char* JointTypeName(JointType type) {
  constexpr const char* kNames[] = {"revolute", "prismatic", "distance", "weld",
                                    "wheel",    "mouse",     "motor",    "filter"};
  const size_t index = static_cast<size_t>(type);
  return index < std::size(kNames) ? kNames[index] : "joint";
}

BodyInspection InspectBody(const World& world, BodyId body) {
  BodyInspection in;
  if (body.IsNull() || !world.IsValid(body)) return in;
  in.valid = true;
  in.body = body;
  in.name = world.GetName(body);
  in.type = world.GetBodyType(body);
  in.awake = world.IsAwake(body);
  in.position = world.GetPosition(body);
  in.angle = world.GetAngle(body);
  in.velocity = world.GetLinearVelocity(body);
  in.angularVelocity = world.GetAngularVelocity(body);
  in.mass = world.GetMass(body);
  in.contacts = Contacts(world, body);
  in.joints = Joints(world, body);
  return in;
}

std::vector<std::string> InspectorLines(const BodyInspection& in, size_t listed) {
  if (!in.valid) return {"no such body at this step"};
  std::vector<std::string> lines = {"body " + Id(in.body) + "  " + TypeName(in.type) +
                                    (in.awake ? ", awake" : ", asleep")};
  if (!in.name.empty()) lines.push_back("name " + in.name.substr(0, kPanelColumns - 5));
  lines.push_back("position" + Figure(in.position.x) + Figure(in.position.y) + " m");
  lines.push_back("angle   " + Figure(in.angle) + " rad");
  lines.push_back("velocity" + Figure(in.velocity.x) + Figure(in.velocity.y) + " m/s");
  lines.push_back("spin    " + Figure(in.angularVelocity) + " rad/s");
  if (in.type == BodyType::Dynamic) lines.push_back("mass    " + Figure(in.mass) + " kg");
  lines.push_back("touching contacts " + Count(in.contacts.size()));
  AddRows(lines, in.contacts, listed, ContactRow);
  lines.push_back("joints " + Count(in.joints.size()));
  AddRows(lines, in.joints, listed,
          [](const InspectedJoint& j) { return JointRow(j, JointTypeName(j.type)); });
  return lines;
}

}  // namespace mk::sandbox
