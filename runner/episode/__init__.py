"""One episode of the official group-chat protocol (spec §7): rules, scheduler, record."""
