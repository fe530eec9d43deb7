print("generate-export: not yet implemented")
