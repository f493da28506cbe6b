// Package schedule holds the scheduling domain: activities and relationships,
// duration parsing, the seed design's node graph, the CPM engine (MS Project /
// Primavera P6 semantics) and the change-ops patch engine with exact inverses.
//
// It is pure: no I/O, no databases, no Temporal. Everything else builds on it.
package schedule
