print("health-benchmarks: not yet implemented")
