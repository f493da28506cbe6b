package interchange

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"path/filepath"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// KeepSource is the source of a schedule read from data in format f
// (named name): the file's bytes compressed, so that export can write the
// file back with only the schedule's changes applied (see Write). A JSON
// file has no source: it is the schedule.
func KeepSource(data []byte, f Format, name string) *schedule.Source {
	if f != XER && f != MSPDI {
		return nil
	}
	var buf bytes.Buffer
	buf.Grow(len(data)/6 + 64)
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	zw.Write(data) // a bytes.Buffer does not fail
	zw.Close()
	return &schedule.Source{Format: string(f), Name: filepath.Base(name), Gzip: buf.Bytes()}
}

// SourceBytes is the file a source keeps, as imported.
func SourceBytes(src *schedule.Source) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(src.Gzip))
	if err != nil {
		return nil, fmt.Errorf("the kept %s file %q is damaged: %w", src.Format, src.Name, err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("the kept %s file %q is damaged: %w", src.Format, src.Name, err)
	}
	return data, nil
}

// readSource reads a source again: the schedule as imported (with the
// network its check compiled), which the schedule to write is compared
// with (see edits), and the file's bytes.
func readSource(src *schedule.Source) (*Result, []byte, error) {
	data, err := SourceBytes(src)
	if err != nil {
		return nil, nil, err
	}
	r, err := ParseWith(data, Format(src.Format), Options{AllowTruncated: true})
	if err != nil {
		return nil, nil, fmt.Errorf("reading the kept %s file %q again: %w", src.Format, src.Name, err)
	}
	return r, data, nil
}
