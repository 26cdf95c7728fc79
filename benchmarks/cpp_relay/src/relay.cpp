// Copyright 2026 The twobone_ik_ros Authors
// Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
// in compliance with the License. You may obtain a copy of the License at
// http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
// writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
// WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
// language governing permissions and limitations under the License.
//
// The C++ baseline of benchmarks/bench_node.py: PointStamped in, the law of
// cosines (elbow up, a target out of reach clamped onto the ray), JointState
// out with the target's stamp; the same QoS as the IK node (reliable, depth 10)
// and rclcpp's default single-threaded executor.

#include <algorithm>
#include <cmath>
#include <memory>

#include "geometry_msgs/msg/point_stamped.hpp"
#include "rclcpp/rclcpp.hpp"
#include "sensor_msgs/msg/joint_state.hpp"

class Relay : public rclcpp::Node
{
public:
  Relay()
  : Node("relay"),
    r1_(declare_parameter("r1", 1.0)),
    r2_(declare_parameter("r2", 0.7))
  {
    out_.name = {"shoulder_joint", "elbow_joint"};
    out_.position.resize(2);
    publisher_ = create_publisher<sensor_msgs::msg::JointState>("joint_states", 10);
    subscription_ = create_subscription<geometry_msgs::msg::PointStamped>(
      "target", 10, [this](const geometry_msgs::msg::PointStamped & target) {solve(target);});
  }

private:
  void solve(const geometry_msgs::msg::PointStamped & target)
  {
    const double x = target.point.x, y = target.point.y;
    const double reach = std::clamp(std::hypot(x, y), std::abs(r1_ - r2_), r1_ + r2_);
    const double cosine = std::clamp(
      (reach * reach - r1_ * r1_ - r2_ * r2_) / (2.0 * r1_ * r2_), -1.0, 1.0);
    const double theta2 = -std::acos(cosine);
    out_.position[0] = std::atan2(y, x) -
      std::atan2(r2_ * std::sin(theta2), r1_ + r2_ * std::cos(theta2));
    out_.position[1] = theta2;
    out_.header.stamp = target.header.stamp;
    publisher_->publish(out_);
  }

  const double r1_, r2_;
  sensor_msgs::msg::JointState out_;
  rclcpp::Publisher<sensor_msgs::msg::JointState>::SharedPtr publisher_;
  rclcpp::Subscription<geometry_msgs::msg::PointStamped>::SharedPtr subscription_;
};

int main(int argc, char ** argv)
{
  rclcpp::init(argc, argv);
  rclcpp::spin(std::make_shared<Relay>());
  rclcpp::shutdown();
  return 0;
}
