"""Planning agents behind one Protocol (`runner.conversation.Agent`), chosen by name."""
