// Package compat holds the tests that check this tool against the
// reference Java YCSB itself (0.17.0's core, fetched by
// scripts/reference-ycsb.sh): the same keys and deterministic values for the
// same properties, and the same report lines.
package compat
