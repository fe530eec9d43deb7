// SyntheticExport: see issue; filled in by later commits.
