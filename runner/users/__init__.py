"""Simulated travellers behind one Protocol (`runner.conversation.User`)."""
