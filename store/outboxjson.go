package store

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The outbox's records are written without encoding/json's reflection:
// every mail queued writes an OutboxMessage and an OutboxStatus inside the
// one write transaction, which a deadline burst of tens of thousands of
// mails waits on. The bytes are json.Marshal's, exactly
// (TestOutboxJSONAsMarshal), so the stored format is unchanged and the
// records are still read with json.Unmarshal.
//
// The common case is written here: ASCII strings that need no escape and
// times that time.Time.MarshalJSON writes (years 0–9999, a zone of less
// than 24 hours). A string that encoding/json would escape goes through
// encoding/json alone; a time it would refuse sends the whole record
// there, so the error is json.Marshal's too.

// putOutboxMessage stores m under key as json.Marshal(m) writes it.
func putOutboxMessage(b *bolt.Bucket, key []byte, m *OutboxMessage) error {
	raw, err := outboxMessageJSON(m)
	if err != nil {
		return fmt.Errorf("encode %s: %w", key, err)
	}
	return b.Put(key, raw)
}

// putOutboxStatus stores st under key as json.Marshal(st) writes it.
func putOutboxStatus(b *bolt.Bucket, key []byte, st OutboxStatus) error {
	raw, err := outboxStatusJSON(st)
	if err != nil {
		return fmt.Errorf("encode %s: %w", key, err)
	}
	return b.Put(key, raw)
}

// outboxMessageJSON is json.Marshal(*m), in a new slice (bbolt keeps the
// value it is given until the transaction ends).
func outboxMessageJSON(m *OutboxMessage) ([]byte, error) {
	n := len(`{"id":,"message_id":"","from":"","to":[],"queued":"","attempts":,"next_attempt":""}`) +
		2*20 + 2*len(time.RFC3339Nano) + len(m.MessageID) + len(m.From)
	for _, to := range m.To {
		n += len(`"",`) + len(to)
	}
	if len(m.Parts) > 0 {
		n += len(`,"parts":[]`)
		for _, p := range m.Parts {
			n += len(`{"key":"","off":,"base64":true},`) + 20 + len(p.Key)
		}
	}
	if m.LastError != "" {
		n += len(`,"last_error":""`) + len(m.LastError)
	}
	if !m.Failed.IsZero() {
		n += len(`,"failed":""`) + len(time.RFC3339Nano)
	}
	if m.Reason != "" {
		n += len(`,"reason":""`) + len(m.Reason)
	}
	b := make([]byte, 0, n)

	b = append(b, `{"id":`...)
	b = strconv.AppendUint(b, m.ID, 10)
	b = append(b, `,"message_id":`...)
	b = appendJSONString(b, m.MessageID)
	b = append(b, `,"from":`...)
	b = appendJSONString(b, m.From)
	b = append(b, `,"to":`...)
	if m.To == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, to := range m.To {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, to)
		}
		b = append(b, ']')
	}
	if len(m.Parts) > 0 { // omitempty
		b = append(b, `,"parts":[`...)
		for i, p := range m.Parts {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"key":`...)
			b = appendJSONString(b, p.Key)
			b = append(b, `,"off":`...)
			b = strconv.AppendInt(b, int64(p.Off), 10)
			if p.Base64 { // omitempty
				b = append(b, `,"base64":true`...)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	var ok bool
	b = append(b, `,"queued":`...)
	if b, ok = appendJSONTime(b, m.Queued); !ok {
		return json.Marshal(*m)
	}
	b = append(b, `,"attempts":`...)
	b = strconv.AppendInt(b, int64(m.Attempts), 10)
	b = append(b, `,"next_attempt":`...)
	if b, ok = appendJSONTime(b, m.NextAttempt); !ok {
		return json.Marshal(*m)
	}
	if m.LastError != "" { // omitempty
		b = append(b, `,"last_error":`...)
		b = appendJSONString(b, m.LastError)
	}
	if !m.Failed.IsZero() { // omitzero: time.Time's IsZero
		b = append(b, `,"failed":`...)
		if b, ok = appendJSONTime(b, m.Failed); !ok {
			return json.Marshal(*m)
		}
	}
	if m.Reason != "" { // omitempty
		b = append(b, `,"reason":`...)
		b = appendJSONString(b, m.Reason)
	}
	return append(b, '}'), nil
}

// outboxStatusJSON is json.Marshal(st), in a new slice.
func outboxStatusJSON(st OutboxStatus) ([]byte, error) {
	n := len(`{"state":"","id":,"at":"","reason":""}`) + 20 + len(time.RFC3339Nano) + len(st.State) + len(st.Reason)
	b := make([]byte, 0, n)
	b = append(b, `{"state":`...)
	b = appendJSONString(b, st.State)
	b = append(b, `,"id":`...)
	b = strconv.AppendUint(b, st.ID, 10)
	if !st.At.IsZero() { // omitzero
		b = append(b, `,"at":`...)
		var ok bool
		if b, ok = appendJSONTime(b, st.At); !ok {
			return json.Marshal(st)
		}
	}
	if st.Reason != "" { // omitempty
		b = append(b, `,"reason":`...)
		b = appendJSONString(b, st.Reason)
	}
	return append(b, '}'), nil
}

// appendJSONTime appends t as t.MarshalJSON writes it: RFC 3339 with the
// nanoseconds (trailing zeros dropped), in t's own zone ("Z" for an offset
// of zero, else ±hh:mm with the offset's seconds dropped). It is false,
// and b is lost, for a time MarshalJSON refuses (a year outside 0–9999, a
// zone of 24 hours or more): the caller falls back to encoding/json.
func appendJSONTime(b []byte, t time.Time) ([]byte, bool) {
	b = append(b, '"')
	b, err := t.AppendText(b) // MarshalJSON's writer, without its allocation
	if err != nil {
		return nil, false
	}
	return append(b, '"'), true
}

// appendJSONString appends s quoted as json.Marshal quotes it. A string
// of bytes 0x20–0x7f (DEL included) without '"', '\\', '<', '>' or '&' is
// copied; any other goes through encoding/json, which escapes controls,
// HTML's characters, U+2028 and U+2029 and replaces invalid UTF-8.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if !jsonPlain[s[i]] {
			q, _ := json.Marshal(s) // a string cannot fail
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// jsonPlain holds the bytes that json.Marshal copies into a string as
// they are.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = true
	}
	for _, c := range `"\<>&` {
		t[c] = false
	}
	return t
}()
