package neo4j

// Every statement the adapter sends is a constant here: values travel only
// as parameters, labels and relationship types are spelled out. A test
// (TestCypherIsConstant) checks that each Run call takes one of these.

// Schema, created idempotently at Open. Community edition has property
// uniqueness constraints (composite ones too); key and existence
// constraints are Enterprise-only, so none are used. Node.uuid is the key
// MERGE finds nodes by; (schedule_id, id) guards the schedule's own ids.
var schemaStatements = []string{
	cypherNodeUUID,
	cypherNodeKey,
	cypherScheduleKey,
	cypherLedgerKey,
	cypherNodeSchedule,
	cypherLedgerSchedule,
	cypherIntentKey,
	cypherIntentSchedule,
	cypherVersionKey,
}

const (
	cypherNodeUUID       = `CREATE CONSTRAINT node_uuid IF NOT EXISTS FOR (n:Node) REQUIRE n.uuid IS UNIQUE`
	cypherNodeKey        = `CREATE CONSTRAINT node_schedule_id IF NOT EXISTS FOR (n:Node) REQUIRE (n.schedule_id, n.id) IS UNIQUE`
	cypherScheduleKey    = `CREATE CONSTRAINT schedule_id IF NOT EXISTS FOR (s:Schedule) REQUIRE s.id IS UNIQUE`
	cypherLedgerKey      = `CREATE CONSTRAINT ledger_op IF NOT EXISTS FOR (l:LedgerEntry) REQUIRE (l.schedule_id, l.op_id) IS UNIQUE`
	cypherNodeSchedule   = `CREATE INDEX node_schedule IF NOT EXISTS FOR (n:Node) ON (n.schedule_id)`
	cypherLedgerSchedule = `CREATE INDEX ledger_schedule IF NOT EXISTS FOR (l:LedgerEntry) ON (l.schedule_id)`
	cypherIntentKey      = `CREATE CONSTRAINT intent_id IF NOT EXISTS FOR (i:Intent) REQUIRE i.id IS UNIQUE`
	cypherIntentSchedule = `CREATE INDEX intent_schedule IF NOT EXISTS FOR (i:Intent) ON (i.schedule_id)`
)

// Intent records (store.IntentLog), each written in a transaction of its
// own so that it is durable before the write it announces begins.
const (
	cypherPutIntent = `MERGE (i:Intent {id: $id})
SET i.schedule_id = $schedule, i.started = $started, i.body = $body`

	cypherDeleteIntent = `MATCH (i:Intent {id: $id, schedule_id: $schedule})
DELETE i`

	cypherIntents = `MATCH (i:Intent {schedule_id: $schedule})
RETURN i.body AS body
ORDER BY i.started, i.id`
)

// Writes, all inside Apply's one transaction.
const (
	// cypherLedgerHas returns which of $ops the ledger holds.
	cypherLedgerHas = `UNWIND $ops AS op
MATCH (l:LedgerEntry {schedule_id: $schedule, op_id: op})
RETURN l.op_id AS op_id`

	// cypherScheduleMeta creates or replaces the schedule node's meta; the
	// calendars, options and the kept source file are JSON text, and null
	// removes a property.
	cypherScheduleMeta = `MERGE (s:Schedule {id: $schedule})
SET s.schedule_id = $schedule, s.name = $name, s.start_date = $start_date, s.calendar = $calendar,
	s.data_date = $data_date, s.calendars = $calendars, s.options = $options, s.source = $source`

	// cypherScheduleEnsure creates the schedule node if it is missing.
	cypherScheduleEnsure = `MERGE (s:Schedule {id: $schedule})
ON CREATE SET s.schedule_id = $schedule, s.name = '', s.start_date = ''`

	// cypherScheduleSummary sets the schedule's summary (JSON); null
	// removes it.
	cypherScheduleSummary = `MATCH (s:Schedule {id: $schedule})
SET s.summary = $summary`

	// cypherScheduleSummaryIfMissing stores a summary for a schedule
	// written before summaries (a write since brought its own).
	cypherScheduleSummaryIfMissing = `MATCH (s:Schedule {id: $schedule})
WHERE s.summary IS NULL
SET s.summary = $summary`

	// cypherDeleteNodes deletes nodes by uuid, with their edges.
	cypherDeleteNodes = `UNWIND $uuids AS uuid
MATCH (n:Node {uuid: uuid})
DETACH DELETE n`

	// cypherPutActivities creates or replaces activities: the start,
	// intra and end nodes and the two edges between them. The intra node
	// holds the live fields (live.go's liveProperties; null removes one).
	cypherPutActivities = `UNWIND $rows AS row
MERGE (s:Node {uuid: row.start_uuid})
SET s:Start, s.schedule_id = $schedule, s.id = row.start_id, s.kind = 'start', s.weight = row.start_weight,
	s.activity_id = row.id, s.name = row.name
MERGE (i:Node {uuid: row.intra_uuid})
SET i:Intra, i.schedule_id = $schedule, i.id = row.intra_id, i.kind = 'intra', i.weight = row.intra_weight,
	i.activity_id = row.id, i.name = row.name, i.description = row.description,
	i.type = row.type, i.calendar = row.calendar, i.constraint = row.constraint, i.secondary_constraint = row.secondary_constraint,
	i.actual_start = row.actual_start, i.actual_finish = row.actual_finish, i.remaining = row.remaining,
	i.percent_complete = row.percent_complete, i.manual = row.manual, i.start = row.start, i.finish = row.finish,
	i.wbs = row.wbs, i.codes = row.codes, i.assignments = row.assignments,
	i.baseline_start = row.baseline_start, i.baseline_finish = row.baseline_finish, i.baseline_duration = row.baseline_duration
MERGE (e:Node {uuid: row.end_uuid})
SET e:End, e.schedule_id = $schedule, e.id = row.end_id, e.kind = 'end', e.weight = row.end_weight,
	e.activity_id = row.id, e.name = row.name
MERGE (s)-[:PRECEDES]->(i)
MERGE (i)-[:PRECEDES]->(e)`

	// cypherPutRelationships creates or replaces relationship nodes and
	// links them to their ends. A relationship put again may join other
	// ends now: its old edges go first.
	cypherPutRelationships = `UNWIND $rows AS row
MERGE (n:Node {uuid: row.uuid})
SET n:Relationship, n.schedule_id = $schedule, n.id = row.id, n.kind = 'relationship', n.weight = row.weight
FOREACH (old IN [(n)-[o:PRECEDES]-() | o] | DELETE old)
WITH n, row
MATCH (a:Node {uuid: row.from_uuid})
MATCH (b:Node {uuid: row.to_uuid})
MERGE (a)-[:PRECEDES]->(n)
MERGE (n)-[:PRECEDES]->(b)`

	// cypherForget removes ledger entries.
	cypherForget = `UNWIND $ops AS op
MATCH (l:LedgerEntry {schedule_id: $schedule, op_id: op})
DELETE l`

	// cypherCommit marks ledger entries committed, keeping an earlier
	// record, and returns the ops it found.
	cypherCommit = `UNWIND $ops AS op
MATCH (l:LedgerEntry {schedule_id: $schedule, op_id: op})
SET l.committed = coalesce(l.committed, $record)
RETURN l.op_id AS op_id`

	// cypherRecord records an applied change in the ledger.
	cypherRecord = `MERGE (l:LedgerEntry {schedule_id: $schedule, op_id: $op})
SET l.change = $change`
)

// Reads.
const (
	cypherRecorded = `UNWIND $ops AS op
MATCH (l:LedgerEntry {schedule_id: $schedule, op_id: op})
RETURN l.op_id AS op_id, l.change AS change, coalesce(l.committed, '') AS committed`

	cypherHas = `MATCH (s:Schedule {id: $schedule})
RETURN s.id AS id`

	cypherMeta = `MATCH (s:Schedule {id: $schedule})
RETURN coalesce(s.name, '') AS name, coalesce(s.start_date, '') AS start_date, coalesce(s.calendar, '') AS calendar,
	coalesce(s.data_date, '') AS data_date, coalesce(s.calendars, '') AS calendars, coalesce(s.options, '') AS options,
	coalesce(s.source, '') AS source`

	// cypherNodes reads a schedule's nodes, each with the ids of the nodes
	// its edges lead to (one row per node, not one per edge as well).
	cypherNodes = `MATCH (n:Node {schedule_id: $schedule})
RETURN n.id AS id, n.kind AS kind, n.weight AS weight, coalesce(n.activity_id, '') AS activity_id,
	coalesce(n.name, '') AS name, coalesce(n.description, '') AS description,
	[(n)-[:PRECEDES]->(m:Node) | m.id] AS next,
	n {.type, .calendar, .constraint, .secondary_constraint, .actual_start, .actual_finish, .remaining,
		.percent_complete, .manual, .start, .finish, .wbs, .codes, .assignments,
		.baseline_start, .baseline_finish, .baseline_duration} AS live`

	// cypherSchedules lists the schedules with their summaries; only a
	// schedule without one has its nodes counted.
	cypherSchedules = `MATCH (s:Schedule)
OPTIONAL MATCH (n:Node {schedule_id: s.id}) WHERE s.summary IS NULL
WITH s, count(CASE n.kind WHEN 'intra' THEN 1 END) AS activities, count(CASE n.kind WHEN 'relationship' THEN 1 END) AS relationships
RETURN s.id AS id, coalesce(s.name, '') AS name, coalesce(s.summary, '') AS summary, activities, relationships
ORDER BY id`
)

// Deletes of a whole schedule, a batch per transaction so that a schedule
// of any size fits the server's transaction memory.
const (
	cypherDeleteLedgerBatch = `MATCH (l:LedgerEntry {schedule_id: $schedule})
WITH l LIMIT $limit
DELETE l
RETURN count(*) AS deleted`

	cypherDeleteNodeBatch = `MATCH (n:Node {schedule_id: $schedule})
WITH n LIMIT $limit
DETACH DELETE n
RETURN count(*) AS deleted`

	cypherDeleteSchedule = `MATCH (s:Schedule {id: $schedule})
DELETE s`
)
