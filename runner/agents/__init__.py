"""Planning agents behind one Protocol (`runner.episode.conversation.Agent`), chosen by name."""

from runner.agents.baselines import GreedyPlanner, OracleAgent, OraclePlanner, ScriptedAgent, SilentAgent
from runner.agents.openai_agent import OpenAIAgent
from runner.agents.registry import AGENT_FACTORIES, AgentFactory, AgentSetupError, make_agent

__all__ = [
    "AGENT_FACTORIES",
    "AgentFactory",
    "AgentSetupError",
    "GreedyPlanner",
    "OpenAIAgent",
    "OracleAgent",
    "OraclePlanner",
    "ScriptedAgent",
    "SilentAgent",
    "make_agent",
]
