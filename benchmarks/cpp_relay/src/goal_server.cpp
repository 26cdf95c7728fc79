// Copyright 2026 The twobone_ik_ros Authors
// Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
// in compliance with the License. You may obtain a copy of the License at
// http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
// writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
// WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
// language governing permissions and limitations under the License.
//
// The FollowJointTrajectory server of benchmarks/bench_control.py: an rclcpp_action server,
// as joint_trajectory_controller's is, that accepts each goal, succeeds it at once and
// publishes its trajectory on `accepted` as it takes it, so that the benchmark sees when
// each goal came.  A Python server (rclpy's) could not keep up with a goal per
// millisecond: it makes every goal's status a Python object on each status it publishes.
// Results are kept 1 s (the parameter result_timeout; rclcpp_action's default, which
// joint_trajectory_controller keeps, is 10 s): at a goal per millisecond each status array
// would otherwise hold ten thousand goals, and what it costs the clients that read it would
// be the server's choice, not theirs.

#include <chrono>
#include <memory>

#include "control_msgs/action/follow_joint_trajectory.hpp"
#include "rclcpp/rclcpp.hpp"
#include "rclcpp_action/rclcpp_action.hpp"
#include "trajectory_msgs/msg/joint_trajectory.hpp"

using FollowJointTrajectory = control_msgs::action::FollowJointTrajectory;
using Handle = rclcpp_action::ServerGoalHandle<FollowJointTrajectory>;

class GoalServer : public rclcpp::Node
{
public:
  GoalServer()
  : Node("goal_server")
  {
    accepted_ = create_publisher<trajectory_msgs::msg::JointTrajectory>("accepted", 1000);
    rcl_action_server_options_t options = rcl_action_server_get_default_options();
    options.result_timeout.nanoseconds = RCL_S_TO_NS(declare_parameter("result_timeout", 1));
    server_ = rclcpp_action::create_server<FollowJointTrajectory>(
      this, "follow_joint_trajectory",
      [this](const rclcpp_action::GoalUUID &, std::shared_ptr<const FollowJointTrajectory::Goal> goal) {
        accepted_->publish(goal->trajectory);
        return rclcpp_action::GoalResponse::ACCEPT_AND_EXECUTE;
      },
      [](const std::shared_ptr<Handle>) {return rclcpp_action::CancelResponse::ACCEPT;},
      [](const std::shared_ptr<Handle> handle) {
        handle->succeed(std::make_shared<FollowJointTrajectory::Result>());
      },
      options);
  }

private:
  rclcpp::Publisher<trajectory_msgs::msg::JointTrajectory>::SharedPtr accepted_;
  rclcpp_action::Server<FollowJointTrajectory>::SharedPtr server_;
};

int main(int argc, char ** argv)
{
  rclcpp::init(argc, argv);
  rclcpp::spin(std::make_shared<GoalServer>());
  rclcpp::shutdown();
  return 0;
}
