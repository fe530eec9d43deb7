print("health-analyzer: not yet implemented")
