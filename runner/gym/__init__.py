"""The training gym (docs/runner.md#the-gym): `GroupTravelEnv`, a Gymnasium `Env`
in which a policy plays the Agent of the very episode `tripwright run` plays; `drive` plays any
`Agent` through it. The environment, its action and observation spaces and its rewards are in
`environment`.
"""

from runner.gym.environment import GroupTravelEnv, GymInputError, Rewards, drive, elicited_fields, to_step

__all__ = ["GroupTravelEnv", "GymInputError", "Rewards", "drive", "elicited_fields", "to_step"]
