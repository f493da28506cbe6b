package interchange

import (
	"io"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// patchMSPDI writes the MSPDI file s was imported from (s.Source) with s's
// changes applied. Placeholder: the whole-model writer until the patch
// writer lands.
func patchMSPDI(w io.Writer, s *schedule.Schedule, progress Progress) error {
	return writeMSPDI(w, s, progress)
}
