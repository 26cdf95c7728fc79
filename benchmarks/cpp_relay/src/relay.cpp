// Copyright 2026 The twobone_ik_ros Authors
// Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
// in compliance with the License. You may obtain a copy of the License at
// http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
// writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
// WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
// language governing permissions and limitations under the License.
//
// The C++ baseline of benchmarks/bench_node.py and bench_control.py: PointStamped in,
// the law of cosines (elbow up, a target out of reach clamped onto the ray), and out
// with the target's stamp, as the parameter output says: joint_states (JointState),
// joint_trajectory (a one-point JointTrajectory: the goal, time_from_start 0.1 s),
// forward_command (Float64MultiArray on commands) or follow_joint_trajectory (that
// trajectory as a goal of rclcpp_action's client, each goal's result asked for, as
// the IK node asks); the same QoS as the IK node (reliable, depth 10) and rclcpp's
// default single-threaded executor.

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "control_msgs/action/follow_joint_trajectory.hpp"
#include "geometry_msgs/msg/point_stamped.hpp"
#include "rclcpp/rclcpp.hpp"
#include "rclcpp_action/rclcpp_action.hpp"
#include "sensor_msgs/msg/joint_state.hpp"
#include "std_msgs/msg/float64_multi_array.hpp"
#include "trajectory_msgs/msg/joint_trajectory.hpp"

using FollowJointTrajectory = control_msgs::action::FollowJointTrajectory;

class Relay : public rclcpp::Node
{
public:
  Relay()
  : Node("relay"),
    r1_(declare_parameter("r1", 1.0)),
    r2_(declare_parameter("r2", 0.7)),
    output_(declare_parameter("output", std::string("joint_states")))
  {
    const std::vector<std::string> names = {"shoulder_joint", "elbow_joint"};
    if (output_ == "joint_trajectory") {
      trajectory_.joint_names = names;
      trajectory_.points.resize(1);
      trajectory_.points[0].positions.resize(2);
      trajectory_.points[0].time_from_start.nanosec = 100000000;
      trajectories_ = create_publisher<trajectory_msgs::msg::JointTrajectory>(
        "joint_trajectory", 10);
    } else if (output_ == "follow_joint_trajectory") {
      goal_.trajectory.joint_names = names;
      goal_.trajectory.points.resize(1);
      goal_.trajectory.points[0].positions.resize(2);
      goal_.trajectory.points[0].time_from_start.nanosec = 100000000;
      goals_ = rclcpp_action::create_client<FollowJointTrajectory>(
        this, "follow_joint_trajectory");
      options_.result_callback = [](const auto &) {};  // asked for, as the IK node does
    } else if (output_ == "forward_command") {
      command_.data.resize(2);
      commands_ = create_publisher<std_msgs::msg::Float64MultiArray>("commands", 10);
    } else {
      state_.name = names;
      state_.position.resize(2);
      states_ = create_publisher<sensor_msgs::msg::JointState>("joint_states", 10);
    }
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
    const double theta1 = std::atan2(y, x) -
      std::atan2(r2_ * std::sin(theta2), r1_ + r2_ * std::cos(theta2));
    if (goals_) {
      goal_.trajectory.header.stamp = target.header.stamp;
      goal_.trajectory.points[0].positions[0] = theta1;
      goal_.trajectory.points[0].positions[1] = theta2;
      goals_->async_send_goal(goal_, options_);
    } else if (trajectories_) {
      trajectory_.header.stamp = target.header.stamp;
      trajectory_.points[0].positions[0] = theta1;
      trajectory_.points[0].positions[1] = theta2;
      trajectories_->publish(trajectory_);
    } else if (commands_) {
      command_.data[0] = theta1;
      command_.data[1] = theta2;
      commands_->publish(command_);
    } else {
      state_.header.stamp = target.header.stamp;
      state_.position[0] = theta1;
      state_.position[1] = theta2;
      states_->publish(state_);
    }
  }

  const double r1_, r2_;
  const std::string output_;
  sensor_msgs::msg::JointState state_;
  trajectory_msgs::msg::JointTrajectory trajectory_;
  std_msgs::msg::Float64MultiArray command_;
  FollowJointTrajectory::Goal goal_;
  rclcpp_action::Client<FollowJointTrajectory>::SendGoalOptions options_;
  rclcpp_action::Client<FollowJointTrajectory>::SharedPtr goals_;
  rclcpp::Publisher<sensor_msgs::msg::JointState>::SharedPtr states_;
  rclcpp::Publisher<trajectory_msgs::msg::JointTrajectory>::SharedPtr trajectories_;
  rclcpp::Publisher<std_msgs::msg::Float64MultiArray>::SharedPtr commands_;
  rclcpp::Subscription<geometry_msgs::msg::PointStamped>::SharedPtr subscription_;
};

int main(int argc, char ** argv)
{
  rclcpp::init(argc, argv);
  rclcpp::spin(std::make_shared<Relay>());
  rclcpp::shutdown();
  return 0;
}
