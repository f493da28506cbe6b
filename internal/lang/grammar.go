package lang

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/lang/lexicon"
	"github.com/autoscheduler/autoscheduler/internal/lazyre"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// grammar is the sentence shapes, most specific first. Patterns match the
// canonical clause (see canonicalize): verbs are already "delete", "add",
// "link", …; "X can't start until Y is finished" reads
// "x cannot starts until y finishes". X, Y and Z are references.
var grammar = []rule{
	// Copies of a place: "add a level 5 like level 4", "copy span 3 as span 5".
	{re(`(?:add|copy) (?:an? |another |new |extra |the )*(?P<x>.+?),? (?:just |exactly )?(?:like|identical to|identical|the same as|same as|similar to|as (?:an? )?copy of|(?:an? )?copy of|copied from|copy from|based on|mirroring|matching) (?:the )?(?P<y>.+?)`), copyPlace},
	{re(`copy (?:the )?(?P<y>.+?) (?:to make|to create|and call it|and name it|as|to|into|for|onto) (?:an? |another |new |the )*(?P<x>.+?)`), copyPlace},
	// Re-sequencing: X follows Y instead of Z.
	{re(`move (?P<x>.+?) (?:to )?(?:after|follow|behind|so it follows|so that it follows) (?P<y>.+?),? (?:instead|not|and not|but not|away from) (?:after )?(?P<z>.+?)`), relink},
	{re(`(?:make |have )?(?P<x>.+?) {MODAL}(?:follow|after|starts after) (?P<y>.+?),? (?:instead|not|and not|but not) (?:after |follow )?(?P<z>.+?)(?: instead)?`), relink},
	{re(`(?P<x>.+?) {MODAL}follow (?P<y>.+?) instead`), relink},
	{re(`(?:change|switch|swap|move|relink|repoint) (?:the )?(?:predecessor|predecessors|driving predecessor|link|links) (?:of |on |for )?(?P<x>.+?) from (?P<z>.+?) to (?P<y>.+?)`), relink},
	{re(`(?:change|switch|swap|move) (?P<x>.+?)(?: s)? (?:predecessor|predecessors|driving predecessor) from (?P<z>.+?) to (?P<y>.+?)`), relink},
	{re(`(?:relink|repoint) (?P<x>.+?) from (?P<z>.+?) to (?P<y>.+?)`), relink},
	{re(`(?:move|push) (?P<x>.+?) (?:to )?(?:after|follow|behind|so it follows|so that it follows) (?P<y>.+?)`), relink},

	// Relationships that no longer hold.
	{re(`(?P<x>.+?) (?:nolonger|cannot|dont|doesnt|need not|neednt|no) (?:(?:needs|need|has|have) to |needs |need )?(?:follow|starts after)(?: (?P<y>.+?))?(?: anymore)?`), unlinkStatement},
	{re(`(?P<x>.+?) (?:is |are )?(?:nolonger|not|cannot) (?:follow|linked to|tied to|link to|connected to|dependent on|after) (?P<y>.+?)(?: anymore)?`), unlinkStatement},
	{re(`(?P<x>.+?) {MODAL}(?:starts) (?:without (?:follow |waiting for |waiting on )?|independently of |independent of |regardless of )(?P<y>.+?)`), unlinkStatement},

	// Lags.
	{re(`delete {DET}(?:lag|lags|delay|gap) (?:on |from |between |in |of |for )?(?:the )?(?:{LINK} )?(?P<dir>from |between )?(?P<x>.+?) (?:to|and|->) (?P<y>.+?)`), zeroLag},
	{re(`(?:change|make|extend|shorten) (?:the )?(?:lag|delay|gap) (?:on |of |for |in )?(?:the )?(?:{LINK} )?(?P<dir>from |between )?(?P<x>.+?) (?:to|and|->) (?P<y>.+?) (?P<how>to|by|at|from {NUM}(?: days| weeks| hours)? to) (?P<n>{NUM})(?: (?P<u>days|weeks|hours))?`), setLag},
	{re(`(?:change|make|extend|shorten) (?:the )?(?:{LINK} )?(?P<dir>from |between )?(?P<x>.+?) (?:to|and|->) (?P<y>.+?) (?:lag|delay|gap) (?P<how>to|by|at) (?P<n>{NUM})(?: (?P<u>days|weeks|hours))?`), setLag},

	// "add a 2 day lag between X and Y" (the lag phrase is taken out).
	{re(`add (?P<dir>between |from )(?P<x>.+?) (?:and|to|->) (?P<y>.+?)`), setLinkFromPhrases},

	// Delays: the start moves, the duration stays ("push X back a week").
	{re(`(?:delay|postpone|push back|push out|put back|push|slip|defer|hold back|hold) (?P<x>.+?) (?:back |out |later )?(?:by |for )?(?:another |a further |further )?(?P<d>{DUR})(?: later| back| out)?` + delayMeans), delay},
	// "move X by 3 days" may be either way: only with "back", "out" or "later".
	{re(`(?:move|shift|put|knock|set) (?P<x>.+?) (?:back|out|later) (?:by |for )?(?:another |a further |further )?(?P<d>{DUR})` + delayMeans), delay},
	{re(`(?:move|shift) (?P<x>.+?) (?:by )?(?P<d>{DUR}) (?:later|back|out)` + delayMeans), delay},
	{re(`(?P<x>.+?) {MODAL}(?:running |now |currently )?(?P<d>{DUR}) (?:late|behind)(?: schedule| programme| program)?`), delay},
	{re(`(?P<x>.+?) {MODAL}(?:starts|be delayed|be pushed back|be postponed|slip|slips|be moved|move) (?:by )?(?P<d>{DUR}) (?:later|back)` + delayMeans), delay},
	{re(`(?P<x>.+?) {MODAL}(?:has been |have been |was |were |got |gets )?(?:delayed|pushed back|postponed|slipped|slipping|slip|slips|running late|late) (?:by )?(?P<d>{DUR})`), delay},

	// Progress.
	{re(`(?P<x>.+?) {MODAL}(?:now |at |currently |about |around |progress |progress is |progress at |percent finishes |percent complete |completion |finishes )*(?P<n>{NUM}) percent(?: (?:finishes|done|through|progress|built|installed|complete))?`), percent},
	{re(`(?P<n>{NUM}) percent (?:finishes|done|progress|complete) (?:on|for|of) (?P<x>.+?)`), percent},
	{re(`(?:we are |were |we re |its |it is )?(?P<n>{NUM}) percent (?:through|into|along|of the way through|finishes with|done with) (?P<x>.+?)`), percent},
	{re(`(?P<x>.+?) {MODAL}(?:now )?(?:about |around |roughly |nearly |almost )?(?P<n>half|(?:a|one|1) (?:quarter|third)|(?:three|3) quarters|(?:two|2) thirds|\d{1,2} and \d{1,2})(?: way| of the way)? (?:finishes|done|through|built|installed|complete)`), percent},
	{re(`(?:set|change|update|mark|put|make) {DET}(?:progress|percent finishes|percent complete|percent|percentage|completion) (?:on|of|for) (?P<x>.+?) (?:to|at|as) (?P<n>{NUM})(?: percent)?`), percent},
	{re(`(?:set|change|update|mark|put|make) (?P<x>.+?) (?:to|at|as) (?P<n>{NUM}) percent(?: finishes| done| complete)?`), percent},
	{re(`(?:there (?:is|are) )?(?:only |just |still )?(?P<d>{DUR}) (?:remaining|left|to go|remain|more) (?:on|for|in|of) (?P<x>.+?)`), remaining},
	{re(`(?P<x>.+?) {MODAL}(?:has |have |has got |got |needs |need )?(?:only |just |still |another )?(?P<d>{DUR}) (?:remaining|left|to go|more to go)`), remaining},
	{re(`(?:set|change|update|make) {DET}(?:remaining duration|remaining|time remaining|duration remaining) (?:on|of|for) (?P<x>.+?) (?:to|at|as) (?P<d>{DUR})`), remaining},
	{re(`{DET}(?:remaining duration|remaining time|time remaining|duration remaining|remaining) (?:on|of|for) (?P<x>.+?) (?:is|to|at|=|should be|will be|is now) (?P<d>{DUR})`), remaining},
	{re(`(?P<x>.+?) {MODAL}(?:needs|need|requires|require|has|have) (?:another |a further )?(?P<d>{DUR})(?: more)? (?:to (?:finishes|go|completion)|left|remaining)`), remaining},

	// Durations.
	{re(`(?:change|make) (?:the )?(?:duration|length|time) (?:of |for |on )?(?P<x>.+?) (?:to|at|from {NUM}(?: days| weeks| hours)? to|be) (?P<d>{DUR})`), setDuration},
	{re(`(?:change|make) (?P<x>.+?) (?:duration|length) (?:to |at |be )?(?P<d>{DUR})`), setDuration},
	{re(`(?P<how>extend|shorten) (?:the )?(?:duration (?:of )?)?(?P<x>.+?) (?P<by>by|to) (?P<d>{DUR})`), setDuration},
	{re(`(?P<how>delete) (?P<x>.+?) (?P<by>by) (?P<d>{DUR})`), setDuration},
	{re(`(?:delete) (?:the )?(?:duration (?:of )?)?(?P<x>.+?) (?:down )?to (?P<d>{DUR})`), resolvedX(setDuration)}, // "cut X to 8 days"
	{re(`(?P<how>add) (?:an? )?(?:extra |additional |more |another )?(?P<d>{DUR})(?: more| extra)? (?:to|onto|on) (?:the duration of )?(?P<x>.+?)(?: duration)?`), setDuration},
	{re(`(?:take|delete|knock|shave|trim|save) (?P<d>{DUR}) (?:off|from|out of|on) (?:the duration of )?(?P<x>.+?)`), changeBy(-1)}, // "cut" reads as delete
	{re(`(?P<x>.+?) {MODAL}(?:take |takes |last |lasts |run |runs |be finishes |finishes |be )?(?:in )?(?P<d>{DUR}) (?:less|shorter|shorten|quicker|faster|sooner)(?: than (?:planned|scheduled|programmed|expected|now|before))?`), changeBy(-1)},
	{re(`(?P<x>.+?) {MODAL}(?:take |takes |last |lasts |run |runs |be )?(?P<d>{DUR}) longer(?: than (?:planned|scheduled|programmed|expected|now|before))?`), changeBy(1)},
	{re(`(?:we |i |they )?add (?P<d>{DUR}) (?:for|on|to do|to finish|to complete) (?P<x>.+?)(?P<not> ?,? (?:not|instead of|instead|rather than) (?:{DUR}|{NUM}))?`), resolvedX(neededDuration)},
	{re(`(?:add|allow|give) (?:an? )?(?:extra |additional |more |another |further )?(?P<d>{DUR})(?: more| extra)? (?:for|to) (?P<x>.+?)`), resolvedX(changeBy(1))},
	{re(`(?:give|allow) (?P<x>.+?) (?:an? )?(?:extra|additional|more|another|further) (?P<d>{DUR})`), changeBy(1)},
	{re(`(?:give|allow|add) (?P<x>.+?) (?:an? |another |a further )?(?P<d>{DUR})(?: more| extra)?`), resolvedX(moreDays)},
	{re(`(?:make|change|turn|convert) (?P<x>.+?) (?:into |to )?(?:an? )?milestone`), milestone},
	{re(`(?:change|make) (?P<x>.+?) (?:(?:take|last|be|run|run for|last for) )?(?:to |from {NUM}(?: days| weeks| hours)? to )?(?P<d>{DUR})(?: long)?`), setDuration},
	{re(`(?P<x>.+?) {MODAL}(?:needs|need|requires|require|takes|take) (?:an? )?(?:extra|additional|another|further) (?P<d>{DUR})`), changeBy(1)},
	{re(`(?P<x>.+?) {MODAL}(?:needs|need|requires|require|takes|take) (?P<d>{DUR})(?: longer)?`), moreDays},
	{re(`(?P<x>.+?)(?: duration)? {MODAL}(?:take|takes|last|lasts|needs|need|requires|require|duration|is|be|run|runs|run for|runs for) (?:now |currently |actually |really )?(?:only |just |about |around |approximately |approx )?(?P<d>{DUR})(?: long)?(?: instead)?(?: now)?(?: ?,? (?:not|instead of|instead|rather than) (?:{DUR}|{NUM}))?`), setDuration},

	{re(`(?:change|make|turn|convert) (?:on |for |of |to )?{DET}(?:{LINK} )?(?P<dir>from |between )?(?P<x>.+?) (?:to|and|->) (?P<y>.+?)(?: (?:into|to|be) (?:an? )?)?`), setLinkFromPhrases},

	// Names.
	{re(`rename (?P<x>.+?) (?:to|as|into) (?P<n>.+)`), rename},
	{re(`change (?:the )?name (?:of )?(?P<x>.+?) to (?P<n>.+)`), rename},

	// Relationships removed.
	{re(`(?:delete|unlink|break|sever) {DET}(?:{LINK}) (?:between) (?P<x>.+?) and (?P<y>.+?)`), unlinkEither},
	{re(`(?:delete|unlink|break|sever) {DET}(?:{LINK}) (?:from) (?P<x>.+?) (?:to|into|->) (?P<y>.+?)`), unlinkDirected},
	{re(`(?:delete|unlink) {DET}(?:{LINK}) (?P<x>.+?) (?:to|->) (?P<y>.+?)`), unlinkDirected},
	{re(`(?:delete|unlink) (?P<x>.+?) ->(?P<y>.+?)`), unlinkDirected},
	{re(`unlink (?P<x>.+?) (?:from|and) (?P<y>.+?)`), unlinkEither},
	{re(`(?:delete|unlink|break|sever) {DET}(?:{LINK}) (?:to|into) (?P<y>.+?)`), unlinkInto},
	{re(`(?:delete|unlink|break|sever) {DET}(?:{LINK}) (?:from|out of) (?P<x>.+?)`), unlinkOutOf},
	{re(`(?:delete|unlink) {DET}(?:{LINK}) (?:of|for) (?P<y>.+?) on (?P<x>.+?)`), unlinkDirected},
	{re(`delete (?P<x>.+?) (?:as|from being) (?:an? |the )?predecessor (?:of|to|for) (?P<y>.+?)`), unlinkDirected},
	{re(`delete (?P<x>.+?) from (?:the )?predecessors of (?P<y>.+?)`), unlinkDirected},

	// Relationships added.
	{re(`link (?:up )?(?P<x>.+?) (?:to|with|and|into|onto|->) (?P<y>.+?)`), linkXY},
	{re(`(?:add|create|make) (?:an? |the |new )*(?:{LINK}) (?:from )?(?P<x>.+?) (?:to|->) (?P<y>.+?)`), linkXY},
	{re(`(?:add|create|make) (?:an? |the |new )*(?:{LINK}) between (?P<x>.+?) and (?P<y>.+?)`), linkXY},
	{re(`(?:make|have|let|change|set) (?P<x>.+?) (?:into )?(?:an? |the )?predecessor (?:of|to|for) (?P<y>.+?)`), linkXY},
	{re(`(?:make|have|let|change|set) (?P<x>.+?) (?:into )?(?:an? |the )?successor (?:of|to|for) (?P<y>.+?)`), linkYX},
	{re(`add (?P<x>.+?) as (?:an? |the )?predecessor (?:of|to|for) (?P<y>.+?)`), linkXY},
	{re(`add (?P<x>.+?) as (?:an? |the )?successor (?:of|to|for) (?P<y>.+?)`), linkYX},
	{re(`(?P<xe>starts|finishes) (?P<x>.+?) (?P<d>{DUR}) (?P<dir>after|before) (?P<y>.+?) (?P<ye>finishes|starts)`), linkEnds},
	{re(`(?P<x>.+?) (?:drives|feeds|feeds into|leads into|leads to|enables|unlocks) (?P<y>.+?)`), linkXY},
	{re(`(?P<x>.+?) (?:is|are) (?:driven|fed|enabled|preceded|unlocked) by (?P<y>.+?)`), linkYX},
	{re(`(?P<x>.+?) : (?P<d>{DUR})(?: ?,? (?:not|instead of|instead|rather than|was) (?:{DUR}|{NUM}))?`), resolvedX(setDuration)},
	{re(`(?:make|have|let) (?P<x>.+?) (?:follow) (?P<y>.+?)`), linkYX},
	{re(`(?:make|have|let) (?P<x>.+?) (?:precede) (?P<y>.+?)`), linkXY},
	{re(`(?:put|schedule|place|sequence) (?P<x>.+?) (?:after|follow) (?P<y>.+?)`), existing(linkYX)},
	{re(`(?:put|schedule|place|sequence) (?P<x>.+?) (?:before|precede) (?P<y>.+?)`), existing(linkXY)},
	{re(`(?P<x>.+?) {MODAL}(?:cannot|cant|wont|shouldnt|mustnt|doesnt|not) (?P<xe>starts|finishes) (?:until|till|unless|before) (?P<y>.+?) (?P<ye>finishes|starts)`), linkEnds},
	{re(`(?P<x>.+?) {MODAL}(?:cannot|cant|wont|shouldnt|mustnt|doesnt|not) (?P<xe>starts|finishes) (?:until|till|unless|before) (?:after )?(?P<y>.+?)`), linkEnds},
	{re(`(?P<x>.+?) {MODAL}(?P<xe>starts|finishes) (?:no earlier than |not earlier than |at least |not before |not until |no sooner than |a minimum of |minimum )?(?P<d>{DUR}) (?P<dir>after|before) (?P<y>.+?) (?P<ye>finishes|starts)`), linkEnds},
	{re(`(?P<x>.+?) {MODAL}(?P<xe>starts|finishes) (?:no earlier than |not earlier than |at least |not before )?(?P<d>{DUR}) (?P<dir>after) (?P<y>.+?)`), linkEnds},
	{re(`(?P<x>.+?) {MODAL}(?:only )?(?P<xe>starts|finishes) (?:when|once|after|as|until) (?P<y>.+?) (?P<ye>finishes|starts)`), linkEnds},
	{re(`(?P<x>.+?) {MODAL}(?:only )?(?P<xe>starts) (?:when|once|after) (?P<y>.+?)`), linkEnds},
	{re(`(?P<x>.+?) and (?P<y>.+?) {MODAL}(?P<xe>starts|finishes) together`), together},
	{re(`(?P<x>.+?) {MODAL}(?P<xe>starts|finishes) together (?P<y>.+?)`), togetherYX},
	{re(`(?P<x>.+?) {MODAL}(?:be )?(?:finishes) before (?P<y>.+?) (?P<ye>starts|finishes)`), finishBefore},
	{re(`(?P<x>.+?) {MODAL}(?:be )?(?:finishes) before (?P<y>.+?)(?: can starts)?`), finishBefore},
	{re(`(?P<x>.+?) {MODAL}(?:follow|after|starts after|be done after|be scheduled after|be sequenced after) (?P<y>.+?)`), linkYX},
	{re(`(?P<x>.+?) {MODAL}(?:precede|before|be done before|be scheduled before) (?P<y>.+?)`), linkXY},

	// Progress reported without a date (asked), after the links: "X can't
	// start until Y is done" is a link.
	{re(`(?:mark|record|show|log) (?P<x>.+?) (?:as )?(?:having )?(?:starts|started|began|begun|commenced|in progress|underway)`), reportedUndated(true)},
	{re(`(?:mark|record|show|log) (?P<x>.+?) (?:as )?(?:having )?(?:finishes|finished|completed|complete|done)`), reportedUndated(false)},
	{re(`(?P<x>.+?) (?:has |have |was |is |are )?(?:starts|started|began|begun|commenced)`), reportedUndated(true)},
	{re(`(?P<x>.+?) (?:has |have |was |were |is |are )?(?:been |now |already )?(?:finishes|finished|completed|complete|done)`), reportedUndated(false)},

	// Constraints taken off (before "delete X" reads the constraint as an
	// activity).
	{re(`(?:delete|clear|drop|lift|release) {DET}(?:date )?(?:constraint|constraints|snet|fnlt|snlt|fnet|mso|mfo|deadline) (?:on|from|of|for|against) (?P<x>.+?)`), unconstrain},
	{re(`(?:unconstrain|unpin|unlock) (?P<x>.+?)`), unconstrain},
	{re(`(?:delete|clear|drop|lift|release) (?:all|every|each|any)(?: of)?(?: the)? (?:date )?(?:constraint|constraints)`), unconstrainAll},
	{re(`take {DET}(?:date )?(?:constraint|constraints|snet|fnlt|snlt|fnet|mso|mfo|deadline) off (?P<x>.+?)`), unconstrain},
	{re(`(?P<x>.+?) (?:no longer has|nolonger has|does not need|doesnt need|needs no|should have no|has no) (?:a |any )?(?:date )?(?:constraint|constraints)(?: anymore)?`), unconstrain},

	// Activities removed.
	{re(`(?P<x>.+?) (?:is|are|has been|have been|got|was|were) (?:nolonger |not )?(?:delete|needed|required|necessary|in scope)(?: anymore)?`), deleteIfNegated},
	{re(`(?:we |i )?(?:cannot|dont|no|nolonger) (?:need|want|longer need|require) (?:the )?(?P<x>.+?)(?: anymore)?`), deleteX},
	{re(`take (?P<x>.+?) out(?: of (?:the )?(?:programme|program|schedule|plan|project|job))?`), deleteX},
	{re(`take out (?P<x>.+)`), deleteX},
	{re(`delete (?:(?:the )?(?:activity|task) )?(?P<x>.+)`), deleteX},
	{re(`dissolve (?:(?:the )?(?:activity|task) )?(?P<x>.+)`), dissolveX},

	// Activities added.
	{re(`add (?:new )?(?:activities|scope|work|tasks|items) for (?P<x>.+?)(?: (?:for|lasting|of|taking) (?P<d>{DUR}))?`), addScope},
	{re(`(?:add|need|require|requires|schedule|plan) (?P<rest>.+)`), addActivity},
}

// datedGrammar is the sentence shapes of a clause that said a date, read
// with the date taken out ("pour slab level 3 cannot starts before").
var datedGrammar = []rule{
	// Start on or after: "can't start before D", "no earlier than D".
	{re(`(?P<x>.+?) {MODAL}(?:cannot|cant|not|mustnt|shouldnt|wont|doesnt|dont) (?:be able to )?(?:starts) (?:before|until|till|earlier than|prior to)`), constrainAs(schedule.StartOnOrAfter)},
	{re(`(?P<x>.+?) {MODAL}(?:starts )?(?:no earlier than|not earlier than|not before|on or after|no sooner than|not sooner than|not until)`), constrainAs(schedule.StartOnOrAfter)},
	// Start on or before.
	{re(`(?P<x>.+?) {MODAL}(?:starts) (?:no later than|not later than|by|on or before)`), constrainAs(schedule.StartOnOrBefore)},
	// Finish on or before: "must be finished by D".
	{re(`(?P<x>.+?) {MODAL}(?:be )?(?:finishes|finish|handed over|delivered) (?:by|no later than|not later than|on or before)`), constrainAs(schedule.FinishOnOrBefore)},
	{re(`(?P<x>.+?) {MODAL}(?:cannot|cant|not|mustnt|shouldnt|wont) (?:finishes) (?:after|later than)`), constrainAs(schedule.FinishOnOrBefore)},
	{re(`(?P<x>.+?) (?:deadline|due date)(?: is| of)?(?: on)?`), constrainAs(schedule.FinishOnOrBefore)},
	{re(`(?P<x>.+?) {MODAL}(?:happen |be reached |be achieved |be met |occur |be in place |be done )?(?:by|no later than|not later than|on or before)`), constrainAs(schedule.FinishOnOrBefore)},
	// Finish on or after.
	{re(`(?P<x>.+?) {MODAL}(?:cannot|cant|not|mustnt|shouldnt|wont) (?:finishes) (?:before|earlier than)`), constrainAs(schedule.FinishOnOrAfter)},
	{re(`(?P<x>.+?) {MODAL}(?:finishes) (?:no earlier than|not earlier than|not before|on or after)`), constrainAs(schedule.FinishOnOrAfter)},
	// "delay X until D", "X is on hold until D": it may not start before.
	{re(`(?:delay|postpone|defer|hold|hold back|push back|push) (?P<x>.+?) (?:until|till|to)`), constrainAs(schedule.StartOnOrAfter)},
	{re(`(?P<x>.+?) {MODAL}(?:on hold|held|deferred|postponed|delayed) (?:until|till)`), constrainAs(schedule.StartOnOrAfter)},
	// "X can start from D" allows it, no more.
	{re(`(?P<x>.+?) (?:can|could|may) (?:now |only )?(?:starts) (?:on|from)`), constrainAs(schedule.StartOnOrAfter)},
	{re(`(?P<x>.+?) {MODAL}(?:starts) from`), constrainAs(schedule.StartOnOrAfter)},
	// On: "start X on Monday 2 March", "X must start on D".
	{re(`(?P<x>.+?) {MODAL}(?:starts) on`), constrainAs(schedule.StartOn)},
	{re(`(?P<x>.+?) (?:to|must|will|shall|should) (?:starts)`), constrainAs(schedule.StartOn)}, // "X to start 18 October"
	{re(`(?:starts|begin) (?P<x>.+?) on`), constrainAs(schedule.StartOn)},
	{re(`(?P<x>.+?) {MODAL}(?:finishes) on`), constrainAs(schedule.FinishOn)},
	{re(`(?:finishes) (?P<x>.+?) on`), constrainAs(schedule.FinishOn)},
	// Progress reported: "Piling started on 12 Jan", "finished yesterday".
	{re(`(?:mark|record|show|log) (?P<x>.+?) (?:as )?(?:having )?(?:starts|started|began|begun|commenced)(?: on| at)?`), reportedOn(true)},
	{re(`(?:mark|record|show|log) (?P<x>.+?) (?:as )?(?:having )?(?:finishes|finished|completed|complete|done)(?: on| at)?`), reportedOn(false)},
	{re(`(?:we|i|they|the team|the crew|the contractor|the sub|the subcontractor) (?:have |has |only |actually )?(?:starts|started|began|begun|commenced|kicked off) (?:on )?(?P<x>.+?)(?: on| at| in| from)?(?: the)?`), reportedOn(true)},
	{re(`(?:we|i|they|the team|the crew|the contractor|the sub|the subcontractor) (?:have |has |only |actually )?(?:finishes|finished|completed) (?P<x>.+?)(?: on| at| in)?(?: the)?`), reportedOn(false)},
	{re(`(?P<x>.+?) (?:has |have |was |were |got |actually |only )?(?:starts|started|began|begun|commenced|kicked off)(?: on| at| in| from)?(?: the)?`), reportedOn(true)},
	{re(`(?P<x>.+?) (?:has |have |was |were |got |actually )?(?:been )?(?:finishes|finished|completed|complete|done|ended)(?: on| at| in)?(?: the)?`), reportedOn(false)},
	{re(`(?:change|set|make|record|enter|put|update) {DET}actual (?P<se>starts|finishes)(?: date)? (?:of|for|on) (?P<x>.+?) (?:to|as|at)(?: on)?`), actual},
	{re(`{DET}actual (?P<se>starts|finishes)(?: date)? (?:of|for|on) (?P<x>.+?) (?:was|is|to|=)(?: on)?`), actual},
	{re(`(?P<x>.+?) actual (?P<se>starts|finishes)(?: date)?(?: was| is| to| on| =)?`), actual},
	// The data date.
	{re(`(?:status|progress|roll|roll forward|move|shift) {DET}(?:(?:programme|program|schedule|project|plan|job)(?: data date| status date)?|data date|status date)(?: forward| on| ahead| back)? (?:to|at|as at|as of|on|for)`), dataDate},
	// "update the schedule as of D" ("update" reads as "change"): the
	// programme named, as "change X to D" is another edit.
	{re(`change {DET}(?:programme|program|schedule|project|plan|job)(?: data date)?(?: forward| on| ahead)? (?:to|at|as at|as of|on|for)`), dataDate},
	{re(`(?:change|set|make) {DET}(?:data date|status date) (?:to|at|as|be)?`), dataDate},
	{re(`{DET}(?:new |add )?(?:data date|status date) (?:is now|is|now|will be|should be|becomes)`), dataDate},
	{re(`{DET}(?:new )?(?:data date|status date)(?: :| =| of| as of| as at)?`), dataDate}, // "data date: 1 April"
	// "set a start no earlier than constraint of D on X".
	{re(`(?:set|change|add|put|give|apply|place) (?:an? |the )?(?P<ct>` + constraintNames + `)(?: date)?(?: constraint)?(?: of| at| dated| for)? (?:on|to|for) (?P<x>.+?)`), namedConstraint},
	{re(`(?:give|set|change) (?P<x>.+?) (?:an? |the )?(?P<ct>` + constraintNames + `)(?: date)?(?: constraint)?(?: of| at| to| on| dated)?`), namedConstraint},
	{re(`(?P<x>.+?)(?: :)? (?P<ct>` + constraintNames + `)(?: date)?(?: constraint)?(?: of| on| at| to| =| :)?`), namedConstraint},
	// "move X to D": which constraint is the planner's to say (asked).
	{re(`(?:move|shift|reschedule|schedule|put|set) (?P<x>.+?) (?:to|for|on)`), constrainAs("")},
}

// constraintNames are the constraints by the names the tools give them
// (canonical words: "start" reads "starts").
const constraintNames = `starts? no earlier than|snet|starts? on or after|finish(?:es)? no later than|fnlt|finish(?:es)? on or before|must starts? on|mso|must finish(?:es)? on|mfo|starts? no later than|snlt|starts? on or before|finish(?:es)? no earlier than|fnet|finish(?:es)? on or after|starts? on|finish(?:es)? on`

// namedConstraint builds "set a SNET constraint of D on X".
func namedConstraint(p *parser, g groups) (Command, bool) {
	ct := strings.ReplaceAll(strings.ReplaceAll(g.str("ct"), "starts", "start"), "finishes", "finish")
	t := map[string]schedule.ConstraintType{
		"start no earlier than": schedule.StartOnOrAfter, "snet": schedule.StartOnOrAfter, "start on or after": schedule.StartOnOrAfter,
		"finish no later than": schedule.FinishOnOrBefore, "fnlt": schedule.FinishOnOrBefore, "finish on or before": schedule.FinishOnOrBefore,
		"must start on": schedule.StartOn, "mso": schedule.StartOn, "start on": schedule.StartOn,
		"must finish on": schedule.FinishOn, "mfo": schedule.FinishOn, "finish on": schedule.FinishOn,
		"start no later than": schedule.StartOnOrBefore, "snlt": schedule.StartOnOrBefore, "start on or before": schedule.StartOnOrBefore,
		"finish no earlier than": schedule.FinishOnOrAfter, "fnet": schedule.FinishOnOrAfter, "finish on or after": schedule.FinishOnOrAfter,
	}[ct]
	if t == "" {
		return Command{}, false
	}
	return constrainAs(t)(p, g)
}

// constrainAs builds a Constrain command of type t.
func constrainAs(t schedule.ConstraintType) func(*parser, groups) (Command, bool) {
	return func(p *parser, g groups) (Command, bool) {
		r := g.ref("x")
		if r.Words == "" || reportedBesides(g) || negated(r) {
			return Command{}, false
		}
		return Command{Kind: Constrain, Targets: []Ref{r}, Constraint: t}, true
	}
}

var (
	pastVerbs = map[string]bool{"started": true, "finished": true, "completed": true, "began": true, "begun": true,
		"ended": true, "done": true, "complete": true, "commenced": true, "kicked": true}
	modalWords = map[string]bool{"must": true, "should": true, "will": true, "shall": true, "can": true, "cant": true,
		"cannot": true, "needs": true, "need": true, "to": true, "has": false, "would": true, "could": true, "wont": true,
		"mustnt": true, "shouldnt": true, "ought": true}
)

// reported reports whether a clause tells what happened ("Piling started
// on 12 Jan", "Piling finished yesterday"): a verb in the past and no
// modal, so the date is an actual, not a constraint.
func reported(c *clause) bool {
	past, modal := false, false
	// The words as written: canonical phrases fold "has started" into
	// one token.
	for _, w := range strings.FieldsFunc(foldWord(c.source()), notAlnum) {
		past = past || pastVerbs[w]
		modal = modal || modalWords[w]
	}
	return past && !modal
}

// reportedBesides is reported over the words of the clause outside X: a
// name may say "to" or "completed" ("Notice to proceed started on 5
// April").
func reportedBesides(g groups) bool {
	i := g.re.SubexpIndex("x")
	if i <= 0 || g.m[2*i] < 0 {
		return reported(g.c)
	}
	inX := map[int]bool{}
	for _, k := range g.c.tokens(g.m[2*i], g.m[2*i+1]) {
		inX[k] = true
	}
	past, modal := false, false
	for _, k := range g.c.idx {
		if inX[k] {
			continue
		}
		tk := g.c.t.toks[k]
		for _, w := range strings.FieldsFunc(foldWord(g.c.t.src[tk.start:tk.end]), notAlnum) {
			past = past || pastVerbs[w]
			modal = modal || modalWords[w]
		}
	}
	return past && !modal
}

// negated reports whether a reference took in a negation ("Piling didn't
// start on 12 Jan" is no constraint and no progress).
func negated(r Ref) bool {
	for _, w := range strings.Fields(r.Words) {
		switch w {
		case "not", "didnt", "doesnt", "dont", "wont", "cant", "cannot", "never", "no", "hasnt", "havent", "isnt", "wasnt", "nolonger":
			return true
		}
	}
	return false
}

// reportedOn builds "X started/finished on D" (the dated grammar adds D):
// only when the clause tells what happened.
func reportedOn(started bool) func(*parser, groups) (Command, bool) {
	return func(p *parser, g groups) (Command, bool) {
		r := g.ref("x")
		if r.Words == "" || !reportedBesides(g) || negated(r) {
			return Command{}, false
		}
		return Command{Kind: Progress, Targets: []Ref{r}, Started: started, Finished: !started}, true
	}
}

// actual builds "set the actual start of X to D", "X actual finish D".
func actual(p *parser, g groups) (Command, bool) {
	r := g.ref("x")
	if r.Words == "" || negated(r) {
		return Command{}, false
	}
	started := g.str("se") == "starts"
	return Command{Kind: Progress, Targets: []Ref{r}, Started: started, Finished: !started}, true
}

// reportedUndated builds "X has started", "X is finished": the date is
// asked.
func reportedUndated(started bool) func(*parser, groups) (Command, bool) {
	return func(p *parser, g groups) (Command, bool) {
		r := g.ref("x")
		if r.Words == "" || negated(r) || !reportedBesides(g) {
			return Command{}, false
		}
		return Command{Kind: Progress, Targets: []Ref{r}, Started: started, Finished: !started}, true
	}
}

// shareWords are the shares of the work said in words, in percent.
var shareWords = map[string]float64{"half": 50, "a quarter": 25, "one quarter": 25, "1 quarter": 25, "a third": 100.0 / 3, "one third": 100.0 / 3,
	"1 third": 100.0 / 3, "three quarters": 75, "3 quarters": 75, "two thirds": 200.0 / 3, "2 thirds": 200.0 / 3}

// percentOf reads a percentage, or a fraction of the work said in words
// ("half", "three quarters") or figures ("3/4": before "done" a share of
// the work, not a date).
func percentOf(n string) (float64, error) {
	if v, ok := shareWords[n]; ok {
		return math.Round(v*10) / 10, nil
	}
	if a, b, ok := strings.Cut(n, "/"); ok {
		num, err1 := strconv.Atoi(a)
		den, err2 := strconv.Atoi(b)
		if err1 != nil || err2 != nil || num <= 0 || den < 2 || num > den {
			return 0, fmt.Errorf("%q is not a share of the work", n)
		}
		return math.Round(1000*float64(num)/float64(den)) / 10, nil
	}
	return strconv.ParseFloat(n, 64)
}

func percent(p *parser, g groups) (Command, bool) {
	n := g.str("n")
	if a, b, ok := strings.Cut(n, " and "); ok {
		// "3/4" reads as "3 and 4": a share only where it was written so.
		if !strings.Contains(g.c.source(), a+"/"+b) {
			return Command{}, false
		}
		n = a + "/" + b
	}
	v, err := percentOf(n)
	r := g.ref("x")
	if err != nil || r.Words == "" || negated(r) {
		return Command{}, false
	}
	if v == 100 { // done: when is asked
		return Command{Kind: Progress, Targets: []Ref{r}, Finished: true}, true
	}
	return Command{Kind: Progress, Targets: []Ref{r}, Percent: &v}, true
}

func remaining(p *parser, g groups) (Command, bool) {
	d, ok := p.duration(g.str("d"))
	r := g.ref("x")
	if !ok || r.Words == "" || negated(r) {
		return Command{}, false
	}
	return Command{Kind: Progress, Targets: []Ref{r}, Days: &d}, true
}

// dataDate reads "status the programme to 1 March": the data date moves.
func dataDate(p *parser, g groups) (Command, bool) {
	return Command{Kind: DataDate}, true
}

// unconstrain reads "remove the constraint on X".
func unconstrain(p *parser, g groups) (Command, bool) {
	r := g.ref("x")
	if r.Words == "" {
		return Command{}, false
	}
	return Command{Kind: Unconstrain, Targets: []Ref{r}}, true
}

// unconstrainAll reads "remove all constraints": no targets is every
// constrained activity.
func unconstrainAll(p *parser, g groups) (Command, bool) {
	return Command{Kind: Unconstrain}, true
}

// existing guards a rule whose X must be an existing activity: "schedule a
// 2 day survey after X" adds one.
func existing(build func(*parser, groups) (Command, bool)) func(*parser, groups) (Command, bool) {
	return func(p *parser, g groups) (Command, bool) {
		xs := g.str("x")
		if strings.HasPrefix(xs, "a ") || strings.HasPrefix(xs, "an ") || strings.HasPrefix(xs, "new ") || durationIn.MatchString(xs) {
			return Command{}, false
		}
		return build(p, g)
	}
}

// resolvedX guards a rule whose X must name an activity the schedule has:
// "allow 3 more days for Final cleaning" extends it, "add 3 days for
// rework" adds an activity.
func resolvedX(build func(*parser, groups) (Command, bool)) func(*parser, groups) (Command, bool) {
	return func(p *parser, g groups) (Command, bool) {
		if p.opt.Resolves == nil || !p.opt.Resolves(g.ref("x").Words) {
			return Command{}, false
		}
		return build(p, g)
	}
}

var durationIn = lazyre.New(`\d (?:days|weeks|hours|months)\b`)

func x(g groups) []Ref { return []Ref{g.linkEnd("x")} }
func y(g groups) []Ref { return []Ref{g.linkEnd("y")} }

func relink(p *parser, g groups) (Command, bool) {
	xr, yr := g.ref("x"), g.ref("y")
	yr.Inherit = &xr
	cmd := Command{Kind: Relink, To: []Ref{xr}, From: []Ref{yr}}
	if g.has("z") {
		zr := g.ref("z")
		zr.Inherit = &xr
		// "follow section 2 instead of 3": the place's kind is the one
		// said before.
		if ws := strings.Fields(zr.Words); len(ws) == 1 {
			if _, _, ok := placeValue(ws[0], lettered); ok {
				if kind := kindBefore(yr.Words); kind != "" {
					zr.Words = kind + " " + zr.Words
				}
			}
		}
		cmd.Instead = &zr
	}
	return cmd, true
}

// kindBefore is the word a place's value follows last in words ("section"
// in "section 2"), "" for none.
func kindBefore(words string) string {
	ws := strings.Fields(words)
	for i := len(ws) - 1; i > 0; i-- {
		if _, _, ok := placeValue(ws[i], lettered); ok && (placeNounShaped(ws[i-1]) || lexicon.IsLevelWord(ws[i-1])) {
			return ws[i-1]
		}
	}
	return ""
}

func unlinkStatement(p *parser, g groups) (Command, bool) {
	if !g.has("y") {
		return Command{}, false
	}
	return Command{Kind: Unlink, From: y(g), To: x(g)}, true
}

// unlinkInto is "delete all links into X": From left empty means any
// predecessor.
func unlinkInto(p *parser, g groups) (Command, bool) {
	return Command{Kind: Unlink, To: y(g)}, true
}

// unlinkOutOf is "delete all links from X": To left empty means any
// successor.
func unlinkOutOf(p *parser, g groups) (Command, bool) {
	return Command{Kind: Unlink, From: x(g)}, true
}

func unlinkEither(p *parser, g groups) (Command, bool) {
	return Command{Kind: Unlink, From: x(g), To: y(g), Either: true}, true
}

func unlinkDirected(p *parser, g groups) (Command, bool) {
	return Command{Kind: Unlink, From: x(g), To: y(g)}, true
}

func zeroLag(p *parser, g groups) (Command, bool) {
	return Command{Kind: SetLink, From: x(g), To: y(g), Either: g.str("dir") == "between ", Lag: ptr(0)}, true
}

func setLag(p *parser, g groups) (Command, bool) {
	v, err := strconv.ParseFloat(g.str("n"), 64)
	if err != nil {
		return Command{}, false
	}
	v = p.days(v, g.str("u"))
	cmd := Command{Kind: SetLink, From: x(g), To: y(g), Either: g.str("dir") == "between ", Lag: &v}
	if g.str("how") == "by" {
		cmd.LagDelta = true
		if strings.HasPrefix(g.c.s, "shorten") {
			*cmd.Lag = -v
		}
	}
	return cmd, true
}

// setLinkFromPhrases is "change the link from X to Y to SS with 2 days
// lag": only with a type or a lag said (linkPhrases took them out).
func setLinkFromPhrases(p *parser, g groups) (Command, bool) {
	if !p.linkPhrase {
		return Command{}, false
	}
	return Command{Kind: SetLink, From: x(g), To: y(g), Either: g.str("dir") == "between ", Reason: "needs-slot"}, true
}

func setDuration(p *parser, g groups) (Command, bool) {
	d, ok := p.duration(g.str("d"))
	if !ok {
		return Command{}, false
	}
	cmd := Command{Kind: SetDuration, Targets: x(g), Days: &d}
	switch how := g.str("how"); {
	case how == "add":
		cmd.DaysDelta = true
	case g.str("by") == "by":
		cmd.DaysDelta = true
		if how == "shorten" || how == "delete" {
			*cmd.Days = -d
		}
	}
	return cmd, true
}

// delay reads "delay X by 5 days", "push X back a week", "make X start 3
// days later": X starts that much later, by a means the planner asks.
func delay(p *parser, g groups) (Command, bool) {
	d, ok := p.duration(g.str("d"))
	if !ok || d <= 0 {
		return Command{}, false
	}
	cmd := Command{Kind: Delay, Targets: x(g), Days: &d}
	switch m := g.str("means"); {
	case strings.Contains(m, "constraint") || strings.Contains(m, "snet") || strings.Contains(m, "earlier") || strings.Contains(m, "date"):
		cmd.Constraint = schedule.StartOnOrAfter
	case m != "":
		cmd.Type = schedule.FS // any link type: the lag goes on the driving link as it is
	}
	return cmd, true
}

// delayMeans is how a delay is to be made when the words say it: "using a
// lag", "as a start no earlier than constraint".
const delayMeans = `(?:,? (?:using|with|as|via|by adding|through|on|by) (?:an? |the |its )?(?P<means>lag|lags|driving link|link|logic|constraint|date constraint|(?:starts? no earlier than|starts? on or after|snet)(?: constraint)?))?`

// neededDuration reads "we need 15 days for piling(, not 12)": the
// duration it takes (canonical "need" is "add", so the words as written
// tell it from "add 15 days for piling", a change by 15 days).
func neededDuration(p *parser, g groups) (Command, bool) {
	src := " " + strings.ToLower(g.c.source()) + " "
	if !g.has("not") && !strings.Contains(src, " need ") && !strings.Contains(src, " needs ") && !strings.Contains(src, " require") {
		return Command{}, false
	}
	return setDuration(p, g)
}

// moreDays reads "give X 2 more days" (canonical words drop "more", so
// the words as written must say it): a change by that much.
func moreDays(p *parser, g groups) (Command, bool) {
	src := " " + strings.ToLower(g.c.source()) + " "
	for _, w := range []string{" more ", " extra ", " another ", " additional ", " further ", " longer "} {
		if strings.Contains(src, w) {
			return changeBy(1)(p, g)
		}
	}
	return Command{}, false
}

// changeBy builds "take N days off X" (sign -1) and "give X an extra N
// days" (sign +1): a change of X's duration by N days.
func changeBy(sign float64) func(*parser, groups) (Command, bool) {
	return func(p *parser, g groups) (Command, bool) {
		d, ok := p.duration(g.str("d"))
		if !ok {
			return Command{}, false
		}
		return Command{Kind: SetDuration, Targets: x(g), Days: ptr(sign * d), DaysDelta: true}, true
	}
}

func milestone(p *parser, g groups) (Command, bool) {
	return Command{Kind: SetDuration, Targets: x(g), Days: ptr(0), Milestone: true}, true
}

func rename(p *parser, g groups) (Command, bool) {
	name := g.ref("n").Text
	if name == "" {
		return Command{}, false
	}
	return Command{Kind: Rename, Targets: x(g), Name: sentenceCase(name)}, true
}

func linkXY(p *parser, g groups) (Command, bool) {
	from, to := x(g), y(g)
	samePlaceTrade(&from[0], &to[0])
	return Command{Kind: Link, From: from, To: to}, true
}

func linkYX(p *parser, g groups) (Command, bool) {
	from, to := y(g), x(g)
	samePlaceTrade(&from[0], &to[0])
	return Command{Kind: Link, From: from, To: to}, true
}

// samePlaceTrade lets an end that is a place alone take the work of the
// other end on a place of the same kind: in "fit-outs on floor 4 should
// follow floor 2", floor 2 is the fit-outs on floor 2 (as in a
// re-sequencing). "The roof should follow level 4" keeps level 4 whole.
func samePlaceTrade(a, b *Ref) {
	for _, pair := range [][2]*Ref{{a, b}, {b, a}} {
		bare, other := pair[0], pair[1]
		kind, ok := placeShaped(bare.Words)
		if !ok || bare.Inherit != nil {
			continue
		}
		ws := strings.Fields(other.Words)
		if len(ws) <= len(strings.Fields(bare.Words)) {
			continue
		}
		if slices.ContainsFunc(ws, func(w string) bool { return w == kind || kind == "level" && lexicon.IsLevelWord(w) }) {
			inherit := *other
			bare.Inherit = &inherit
		}
	}
}

// linkEnds reads "X starts/finishes [N days] after/until Y starts/finishes":
// the ends named give the type, "before" a lead.
func linkEnds(p *parser, g groups) (Command, bool) {
	ye := g.str("ye")
	if ye == "" {
		ye = "finishes"
	}
	typ := map[[2]string]schedule.RelType{
		{"finishes", "starts"}: schedule.FS, {"starts", "starts"}: schedule.SS,
		{"finishes", "finishes"}: schedule.FF, {"starts", "finishes"}: schedule.SF,
	}[[2]string{ye, g.str("xe")}]
	cmd := Command{Kind: Link, From: y(g), To: x(g), Type: typ}
	if g.has("d") {
		d, ok := p.duration(g.str("d"))
		if !ok {
			return Command{}, false
		}
		if g.str("dir") == "before" {
			d = -d
		}
		cmd.Lag = &d
	}
	return cmd, true
}

func together(p *parser, g groups) (Command, bool) {
	return linkTyped(g, schedule.SS, "xe"), true
}

func togetherYX(p *parser, g groups) (Command, bool) {
	cmd, _ := together(p, g)
	cmd.From, cmd.To = cmd.To, cmd.From
	return cmd, true
}

func finishBefore(p *parser, g groups) (Command, bool) {
	return linkTyped(g, schedule.FS, "ye"), true
}

// linkTyped links x to y with typ, or FF when the end group says "finishes".
func linkTyped(g groups, typ schedule.RelType, end string) Command {
	if g.str(end) == "finishes" {
		typ = schedule.FF
	}
	return Command{Kind: Link, From: x(g), To: y(g), Type: typ}
}

func deleteX(p *parser, g groups) (Command, bool) {
	r := g.ref("x")
	if r.Words == "" || isLinkNoun(r.Words) {
		return Command{}, false
	}
	if bySequence.MatchString(r.Words) && !strings.HasPrefix(r.Words, `"`) && (p.opt.Resolves == nil || !p.opt.Resolves(r.Words)) {
		return Command{Kind: Unsupported, Reason: "removing activities by where they sit in the sequence (\"everything after X\") is not something the offline planner guesses: name them (\"delete X, Y and Z\") or a level or trade (\"delete all painting on level 3\")"}, true
	}
	return Command{Kind: Delete, Targets: []Ref{r}}, true
}

// deleteIfNegated reads "X is no longer needed" and "X is deleted" as a
// delete, and "X is needed" as nothing.
func deleteIfNegated(p *parser, g groups) (Command, bool) {
	s := g.c.s
	if strings.Contains(s, " delete") || strings.Contains(s, " not ") || strings.Contains(s, " nolonger ") {
		return deleteX(p, g)
	}
	return Command{}, false
}

func dissolveX(p *parser, g groups) (Command, bool) {
	r := g.ref("x")
	if r.Words == "" {
		return Command{}, false
	}
	return Command{Kind: Dissolve, Targets: []Ref{r}}, true
}

var bySequence = lazyre.New(`\b(?:after|before|following|preceding|between|until|till|up to)\b`)

func isLinkNoun(words string) bool {
	for _, w := range strings.Fields(words) {
		if w != "the" && w != "all" && !linkNouns[w] {
			return false
		}
	}
	return true
}

// copyPlace reads a copy of one place as another: both ends must be a
// place ("level 5", "span 5", "Wing D"), else the words are some other
// request ("add a 3 day survey like the last one").
//
// The new place may leave out its number ("add another level like level
// 4": Name is the kind alone, the planner takes the next free one) and the
// original its kind ("add a fifth floor like the fourth").
func copyPlace(p *parser, g groups) (Command, bool) {
	x, y := g.ref("x"), g.ref("y")
	if name, ok := qualifiedPlaces(x.Words, y.Words); ok {
		if len(strings.Fields(name)) > 1 {
			name = x.Text // as written
		}
		return Command{Kind: Copy, Targets: []Ref{y}, Name: name}, true
	}
	kind, ok := placeShaped(x.Words)
	if !ok {
		ws := strings.Fields(x.Words)
		for len(ws) > 0 && (refFillers[ws[0]] || ws[0] == "another") {
			ws = ws[1:]
		}
		if len(ws) != 1 || !lexicon.IsLevelWord(ws[0]) && !placeNounShaped(ws[0]) {
			return Command{}, false
		}
		kind, x.Text = ws[0], ws[0] // "another level": its number is the planner's
	}
	if _, ok := placeShaped(y.Words); !ok {
		ws := strings.Fields(y.Words)
		for len(ws) > 0 && (refFillers[ws[0]] || ws[0] == "another") {
			ws = ws[1:]
		}
		if len(ws) == 2 && (ws[1] == "one" || lexicon.IsLevelWord(ws[1])) {
			ws = ws[:1] // "the fourth one"
		}
		n, isNum := lexicon.Number(strings.Join(ws, " "))
		if o, isOrd := lexicon.Ordinal(strings.Join(ws, " ")); isOrd {
			n, isNum = o, true
		}
		if len(ws) != 1 || !isNum {
			return Command{}, false
		}
		y = Ref{Text: y.Text, Words: kind + " " + strconv.Itoa(n)}
	}
	return Command{Kind: Copy, Targets: []Ref{y}, Name: x.Text}, true
}

// qualifiedPlaces reads the ends of a copy of a place that other words
// qualify ("data hall D" like "data hall C", "block valve station 3" like
// "station 2", "west plant yard" like "the east plant yard", "another
// data hall" like "data hall C"): the same words but for one place each,
// of one kind, or one end the place alone. name is the new place as said,
// or its kind alone when its value is left out (the planner's to choose).
func qualifiedPlaces(x, y string) (name string, ok bool) {
	trim := func(ws []string) []string {
		for len(ws) > 0 && (refFillers[ws[0]] || ws[0] == "another") {
			ws = ws[1:]
		}
		return ws
	}
	xs, ys := trim(strings.Fields(x)), trim(strings.Fields(y))
	// at finds the place in ws: its first word and its kind.
	at := func(ws []string) (int, string, bool) {
		for i := 0; i+1 < len(ws); i++ {
			if kind, ok := placeShaped(strings.Join(ws[i:i+2], " ")); ok {
				return i, kind, true
			}
		}
		return 0, "", false
	}
	j, ky, oky := at(ys)
	if !oky || len(xs) < 2 && len(ys) < 3 {
		return "", false
	}
	if i, kx, okx := at(xs); okx && kx == ky {
		same := len(xs) == len(ys) && i == j && slices.Equal(xs[:i], ys[:j]) && slices.Equal(xs[i+2:], ys[j+2:])
		if same || len(xs) == 2 && len(ys) > 2 || len(ys) == 2 && len(xs) > 2 {
			return strings.Join(xs, " "), len(xs) > 2 || len(ys) > 2
		}
		return "", false
	}
	// The new place's value left out: y's words without it.
	kindAt, valAt := j, j+1
	if compass[ys[j]] {
		kindAt, valAt = j+1, j
	}
	if slices.Equal(xs, slices.Delete(slices.Clone(ys), valAt, valAt+1)) {
		return ys[kindAt], true
	}
	return "", false
}

// placeShaped reports whether words are one place and nothing else, and
// its kind noun as written: a place of the lexicon ("level 5", "zone B",
// "2nd floor"), a word and a number or a letter ("span 5", "wing d") or a
// compass point and a word ("east wing").
func placeShaped(words string) (string, bool) {
	ws := strings.Fields(words)
	for len(ws) > 0 && (refFillers[ws[0]] || ws[0] == "another") {
		ws = ws[1:]
	}
	if place, used := lexicon.MatchPlace(ws); used > 0 && used == len(ws) && place.ID != "" {
		return string(place.Kind), true
	}
	if len(ws) != 2 {
		return "", false
	}
	if compass[ws[0]] && placeNounShaped(ws[1]) {
		return ws[1], true // "east wing"
	}
	if !placeNounShaped(ws[0]) {
		return "", false
	}
	_, _, ok := placeValue(ws[1], lettered|compassed)
	return ws[0], ok
}

func addScope(p *parser, g groups) (Command, bool) {
	r := g.ref("x")
	cmd := Command{Kind: AddScope, Targets: []Ref{r}}
	if g.has("d") {
		d, ok := p.duration(g.str("d"))
		if !ok {
			return Command{}, false
		}
		cmd.Days = &d
	}
	return cmd, true
}

var (
	placementWords = map[string]string{"after": "after", "following": "after", "follow": "after", "once": "after", "behind": "after",
		"before": "before", "precede": "before", "preceding": "before", "between": "between"}
	nameFillers = map[string]bool{"a": true, "an": true, "the": true, "new": true, "add": true, "another": true, "additional": true,
		"extra": true, "activity": true, "task": true, "called": true, "named": true, "titled": true, "for": true, "one": true,
		"more": true, "of": true, "lasting": true, "taking": true, "with": true, "duration": true, "long": true, "is": true,
		"immediately": true, "right": true, "just": true, "directly": true, "straight": true, "to": true, "and": true, ",": true,
		"(": true, ")": true, ":": true, ";": true, "-": true, "that": true, "which": true, "takes": true, "take": true, "it": true, "will": true, "should": true,
		"on": true, "at": true, "in": true}
)

// addActivity reads "add a 3 day scaffold inspection after the level 1
// slab pour", "insert a milestone 'Roof complete' between X and Y", "we
// need a 2 week curing period after X".
func addActivity(p *parser, g groups) (Command, bool) {
	if cmd, ok := outOfScopeLast(g.str("rest")); ok {
		return cmd, true // "add a holiday on 25 December" is a calendar change
	}
	i := g.re.SubexpIndex("rest")
	rest := g.c.tokens(g.m[2*i], g.m[2*i+1])
	if len(rest) == 0 {
		return Command{}, false
	}
	toks := g.c.t.toks
	cmd := Command{Kind: Add}
	// The placement starts at the first placement word outside quotes.
	head, place := rest, []int(nil)
	for n, k := range rest {
		if _, ok := placementWords[toks[k].canon]; ok && !toks[k].quoted && n > 0 {
			head, place = rest[:n], rest[n:]
			break
		}
	}
	for _, k := range head {
		if linkNouns[toks[k].word] && !toks[k].quoted && !g.c.t.hyphenated(k) {
			return Command{}, false // "add a link …" is a relationship; "a tie-in" an activity
		}
	}
	// Duration and milestone.
	var nameIdx []int
	for _, k := range head {
		tk := toks[k]
		switch {
		case tk.quoted:
			nameIdx = append(nameIdx, k)
		case tk.word == "milestone" || tk.word == "milestones":
			cmd.Milestone, cmd.Days = true, ptr(0)
		case strings.Contains(tk.canon, " ") && cmd.Days == nil:
			if d, ok := p.duration(tk.canon); ok {
				cmd.Days = &d
			} else {
				return Command{Kind: Unknown, Reason: "a duration in months: say it in working days or weeks"}, true
			}
		case tk.canon == "days" || tk.canon == "day":
		default:
			nameIdx = append(nameIdx, k)
		}
	}
	cmd.Name = newName(g.c.t, nameIdx)
	// Placement: after X, before Y, between X and Y, and combinations.
	for len(place) > 0 {
		word := placementWords[toks[place[0]].canon]
		end := len(place)
		for n := 1; n < len(place); n++ {
			if _, ok := placementWords[toks[place[n]].canon]; ok && (word != "between" || n > 1) {
				end = n
				break
			}
		}
		part := trimConnectors(toks, place[1:end])
		switch word {
		case "after":
			cmd.After = append(cmd.After, g.c.refOf(finishTrim(toks, part)))
		case "before":
			cmd.Before = append(cmd.Before, g.c.refOf(part))
		case "between":
			a, b, ok := splitAnd(toks, part)
			if !ok {
				return Command{}, false
			}
			cmd.After = append(cmd.After, g.c.refOf(a))
			cmd.Before = append(cmd.Before, g.c.refOf(b))
		}
		place = place[end:]
	}
	for _, r := range append(append([]Ref{}, cmd.After...), cmd.Before...) {
		if r.Words == "" {
			return Command{}, false
		}
	}
	return cmd, true
}

// trimConnectors drops "and", "," and "is" at either end of a placement.
func trimConnectors(toks []token, idx []int) []int {
	for len(idx) > 0 && (toks[idx[0]].canon == "and" || toks[idx[0]].canon == "," || toks[idx[0]].canon == "the" && len(idx) == 1) {
		idx = idx[1:]
	}
	for len(idx) > 0 && (toks[idx[len(idx)-1]].canon == "and" || toks[idx[len(idx)-1]].canon == "," || toks[idx[len(idx)-1]].canon == "immediately") {
		idx = idx[:len(idx)-1]
	}
	return idx
}

// finishTrim drops "finishes" from "after X finishes".
func finishTrim(toks []token, idx []int) []int {
	if n := len(idx); n > 1 && toks[idx[n-1]].canon == "finishes" {
		return idx[:n-1]
	}
	return idx
}

// splitAnd splits "X and Y" at its last "and".
func splitAnd(toks []token, idx []int) ([]int, []int, bool) {
	for n := len(idx) - 1; n > 0; n-- {
		if toks[idx[n]].canon == "and" {
			return idx[:n], idx[n+1:], n+1 < len(idx)
		}
	}
	return nil, nil, false
}

// levelInName is a level written in a new activity's name: "level 2", "L2",
// "fl 2", "2nd floor", "second storey" (lexicon's level words).
var levelInName = lazyre.New(`(?i)^(?:(?:on|at|for|in|of)\s+)?(?:the\s+)?(?:` +
	lexicon.Pattern(lexicon.LevelWordsApart) +
	`\s*(\d+)|l(\d+)|(\d+)(?:st|nd|rd|th)\s+` + lexicon.Pattern(lexicon.LevelNouns) +
	`|(` + lexicon.Pattern(lexicon.OrdinalWords) + `)\s+` + lexicon.Pattern(lexicon.LevelNouns) + `)$`)

// newName is a new activity's name from the words left when duration and
// placement are gone: a quoted name as written, else the words with their
// fillers dropped, a level written the schedule's way ("Level 2") at the
// end, and a capital first letter.
func newName(t *text, idx []int) string {
	for _, k := range idx {
		if t.toks[k].quoted {
			return t.toks[k].word
		}
	}
	verbatim := false
	for n, k := range idx {
		if w := t.toks[k].word; (w == "called" || w == "named" || w == "titled") && n+1 < len(idx) {
			idx, verbatim = idx[n+1:], true // the name as given
			break
		}
	}
	raw := func(k int) string { return strings.ToLower(t.src[t.toks[k].start:t.toks[k].end]) }
	for len(idx) > 1 && nameFillers[raw(idx[0])] && !isNumber(t.toks[idx[1]].word) {
		idx = idx[1:]
	}
	for len(idx) > 0 && (nameFillers[raw(idx[len(idx)-1])] || raw(idx[len(idx)-1]) == "activity") && !t.hyphenated(idx[len(idx)-1]) {
		idx = idx[:len(idx)-1]
	}
	var parts []string
	level := ""
	for n := 0; n < len(idx); n++ {
		// A level phrase of up to four words anywhere in the name.
		found := false
		for w := min(4, len(idx)-n); w >= 1 && !found; w-- {
			phrase := t.span(idx[n], idx[n+w-1]+1)
			if m := levelInName.FindStringSubmatch(phrase); m != nil && n+w == len(idx) && !verbatim {
				for _, v := range m[1:4] {
					if v != "" {
						level = v
					}
				}
				if m[4] != "" {
					n, _ := lexicon.Ordinal(strings.ToLower(m[4]))
					level = strconv.Itoa(n)
				}
				n += w - 1
				found = true
			}
		}
		if found {
			continue
		}
		tk := t.toks[idx[n]]
		w := t.src[tk.start:tk.end] // a new name is as written, typos and all
		if n > 0 && idx[n-1] == idx[n]-1 && len(parts) > 0 {
			// "Pre-pour", "Fit-out": keep what joined the words.
			if gap := t.src[t.toks[idx[n-1]].end:tk.start]; gap == "-" || gap == "/" {
				parts[len(parts)-1] += gap + w
				continue
			}
		}
		parts = append(parts, w)
	}
	for len(parts) > 0 && nameFillers[strings.ToLower(parts[len(parts)-1])] {
		parts = parts[:len(parts)-1]
	}
	name := strings.Join(parts, " ")
	if level != "" && name != "" {
		name += " Level " + level
	}
	return sentenceCase(name)
}

func sentenceCase(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	r := []rune(s)
	if r[0] >= 'a' && r[0] <= 'z' {
		r[0] -= 'a' - 'A'
	}
	return string(r)
}

// Out of scope: what the planner understands but does not do, with what
// to use instead. outOfScopeFirst runs before the grammar (questions and
// undo are never edits); outOfScopeLast after it (a calendar word in an
// activity's name must not stop "delete Christmas shutdown").
var (
	whStart      = lazyre.New(`^(?:what|whats|why|when|where|who|whos|how|hows|which|tell me|show me|explain|list|give me|i wonder)\b`)
	dateTarget   = lazyre.New(`\b(?:before|by|until|till|on|no later than|not later than|in time for) (?:the )?(?:christmas|xmas|easter|new year|year end|end of (?:the )?(?:year|month|quarter)|\d{1,2}(?:st|nd|rd|th)? (?:of )?(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\b|(?:january|february|march|april|june|july|august|september|october|november|december)\b|\d{4} \d{1,2} \d{1,2}\b)`)
	undoRe       = lazyre.New(`\b(?:undo|revert|roll ?back|rollback|reverse|go back|put back|take back|restore)\b`)
	lastChangeRe = lazyre.New(`\b(?:last|previous|latest|that|my|the) (?:change|changes|edit|edits|dispatch|update|proposal|one)\b|^(?:undo|revert|rollback)$|\b(?:undo|revert|roll ?back) (?:it|that|everything|all)\b`)

	scopeRules = []struct {
		re     *lazyre.Regexp
		reason string
	}{
		{lazyre.New(`\b(?:crash|crashing|compress|compression|fast ?track|fasttrack|accelerate|acceleration|speed up|pull in|pull forward|bring forward|recover|recovery|claw back|catch up)\b|\bshorten (?:the )?(?:project|schedule|programme|program|overall|critical path|job|build)\b|\b(?:finish|complete|deliver) (?:the (?:project|job|building) )?(?:earlier|sooner|faster)\b|\bsave (?:\d+ )?(?:days|weeks)\b`),
			"schedule compression (crashing, fast-tracking) is a trade-off the offline planner does not choose for you: shorten named activities (\"set the duration of X to N days\") or overlap them (\"X starts 2 days after Y starts\"); `autoscheduler schedule` shows the critical path to work on"},
		{lazyre.New(`\b(?:resources?|levell?ing|level the|crews?|gangs?|labou?r|manpower|headcount|overallocat\w*|over allocat\w*|histogram|workers?)\b`),
			"resources are not modelled in this schedule, so there is nothing to level: sequence the clashing work with links instead (\"Tiling Level 2 after Painting Level 2\")"},
		{lazyre.New(`\b(?:calendars?|holidays?|weekends?|saturdays?|sundays?|overtime|night shifts?|shift work|double shifts?|working hours|work hours|work week|working week|(?:6|six|7|seven) day weeks?|christmas|easter|bank holiday|non working|shutdown period)\b`),
			"calendar changes are not an edit the planner makes: change the schedule file's calendar (workdays, holidays, exceptions) and re-import it with `autoscheduler import FILE --schedule ID --replace`"},
		{lazyre.New(`\b(?:deadline|constraints?|constrain|no later than|not later than|must finish on|must start on|start on|finish on|finish by|complete by|completed by|done by|finished by|starts? no earlier than (?:\d|the \d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|pin|lock|fix the date|as late as possible|alap|asap|as soon as possible|mandatory|must start by|target date|by (?:the )?end of)\b|\b\d{4} \d{1,2} \d{1,2}\b|\b(?:january|february|march|april|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\b|\b\d{1,2}(?:st|nd|rd|th)? (?:of )?may\b|\bmay \d|\b(?:monday|tuesday|wednesday|thursday|friday)\b`),
			"this date is not read as a change: date constraints and progress are said like \"X can't start before 3 March\", \"X must be finished by 30 Sep\", \"start X on Monday 2 March\", \"remove the constraint on X\", \"X started on 12 Jan\"; a date named by an event (\"before Christmas\") is not one the planner places, so tie the work to what drives it (\"X after Y\", a lag) or to a milestone"},
		{lazyre.New(`^(?:split|divide|break up|break down|break)\b`),
			"splitting an activity is not an edit the planner makes in one step: shorten it and add the second part (\"add a 3 day X part 2 after X\")"},
		{lazyre.New(`^(?:merge|combine|consolidate)\b`),
			"merging activities is not an edit the planner makes in one step: dissolve the ones to fold in and extend the one that stays"},
		{lazyre.New(`^(?:copy|duplicate|clone|repeat)\b`),
			"copying activities one by one is not something the offline planner does: copy a whole place (\"add a level 5 like level 4\", \"copy span 3 as span 5\") or add each one (\"add a 5 day X after Y\")"},
		{lazyre.New(`\b(?:cost|costs|budget|price|money|cash ?flow)\b`),
			"costs are not modelled in this schedule"},
	}
)

const (
	questionReason = "that is a question, and the planner only changes the schedule: ask it with `autoscheduler ask \"QUESTION\" --schedule ID` (or `--file F`)"
	undoReason     = "taking back a change is not a new edit: `autoscheduler dispatch undo DISPATCH-ID` undoes an accepted dispatch (see `autoscheduler dispatch list`), and `review DISPATCH-ID reject` drops a proposal"
)

func outOfScopeFirst(s string, question bool) (Command, bool) {
	first := strings.Fields(s)[0]
	if (question || whStart.MatchString(s)) && !verbCanon[first] {
		return Command{Kind: Unsupported, Reason: questionReason}, true
	}
	if dateTarget.MatchString(s) {
		return Command{Kind: Unsupported, Reason: scopeRules[3].reason}, true
	}
	if undoRe.MatchString(s) && lastChangeRe.MatchString(s) {
		return Command{Kind: Unsupported, Reason: undoReason}, true
	}
	for _, r := range scopeRules[:1] {
		if r.re.MatchString(s) {
			return Command{Kind: Unsupported, Reason: r.reason}, true
		}
	}
	return Command{}, false
}

func outOfScopeLast(s string) (Command, bool) {
	for _, r := range scopeRules {
		if r.re.MatchString(s) {
			return Command{Kind: Unsupported, Reason: r.reason}, true
		}
	}
	return Command{}, false
}
