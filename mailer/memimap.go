package mailer

import (
	"bufio"
	"bytes"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-message/textproto"
)

// memSession is one IMAP connection to the embedded server.
type memSession struct {
	srv    *Server
	user   *memUser
	sel    *memSelected
	closed bool
}

type memSelected struct {
	mb        *memMailbox
	tracker   *imapserver.SessionTracker
	readOnly  bool
	searchRes imap.UIDSet
}

var (
	_ imapserver.SessionIMAP4rev2 = (*memSession)(nil)
	_ imapserver.SessionSASL      = (*memSession)(nil)
)

var errReadOnly = &imap.Error{Type: imap.StatusResponseTypeNo, Text: "Mailbox is read-only (EXAMINE)"}

func (s *memSession) store() *memStore { return s.srv.store }

func (s *memSession) Close() error {
	st := s.store()
	st.mu.Lock()
	s.unselectLocked()
	closed := s.closed
	s.closed = true
	st.mu.Unlock()
	if !closed {
		s.srv.sessions.Done()
	}
	return nil
}

// unselectLocked drops the selection. Callers hold the store lock: an
// IDLE goroutine may still be reading s.sel when the connection closes.
func (s *memSession) unselectLocked() {
	if s.sel != nil {
		s.sel.tracker.Close()
		s.sel = nil
	}
}

func (s *memSession) Login(username, password string) error {
	u, err := s.srv.login(username, password)
	if err != nil {
		return imapserver.ErrAuthFailed
	}
	s.user = u
	return nil
}

func (s *memSession) AuthenticateMechanisms() []string { return []string{"PLAIN", "LOGIN"} }

func (s *memSession) Authenticate(mech string) (saslServer, error) {
	login := func(identity, username, password string) error {
		if identity != "" && !strings.EqualFold(identity, username) {
			return imapserver.ErrAuthFailed
		}
		return s.Login(username, password)
	}
	switch strings.ToUpper(mech) {
	case "PLAIN":
		return newPlainServer(login), nil
	case "LOGIN":
		return newLoginServer(func(u, p string) error { return login("", u, p) }), nil
	}
	return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Text: "Unsupported SASL mechanism"}
}

func (s *memSession) mailbox(name string) (*memMailbox, error) {
	mb := s.user.mailboxes[mailboxKey(name)]
	if mb == nil {
		return nil, errNoMailbox
	}
	return mb, nil
}

func (s *memSession) Select(name string, opts *imap.SelectOptions) (*imap.SelectData, error) {
	st := s.store()
	st.mu.Lock()
	defer st.mu.Unlock()
	mb, err := s.mailbox(name)
	if err != nil {
		return nil, err
	}
	s.unselectLocked()
	s.sel = &memSelected{mb: mb, tracker: mb.tracker.NewSession(), readOnly: opts != nil && opts.ReadOnly}
	flags := []imap.Flag{imap.FlagSeen, imap.FlagAnswered, imap.FlagFlagged, imap.FlagDeleted, imap.FlagDraft}
	data := &imap.SelectData{
		Flags:          flags,
		PermanentFlags: append(slices.Clone(flags), imap.FlagWildcard),
		NumMessages:    uint32(len(mb.msgs)),
		UIDNext:        imap.UID(mb.uidNext),
		UIDValidity:    mb.uidValidity,
	}
	for i, m := range mb.msgs {
		if !m.hasFlag(imap.FlagSeen) {
			data.FirstUnseenSeqNum = uint32(i + 1)
			break
		}
	}
	return data, nil
}

func (s *memSession) Unselect() error {
	st := s.store()
	st.mu.Lock()
	defer st.mu.Unlock()
	s.unselectLocked()
	return nil
}

func (s *memSession) Create(name string, _ *imap.CreateOptions) error {
	st := s.store()
	st.mu.Lock()
	defer st.mu.Unlock()
	_, err := st.createMailboxLocked(s.user, name)
	return err
}

func (s *memSession) Delete(name string) error {
	st := s.store()
	st.mu.Lock()
	defer st.mu.Unlock()
	if mailboxKey(name) == "INBOX" {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Text: "INBOX cannot be deleted"}
	}
	return st.deleteMailboxLocked(s.user, name)
}

func (s *memSession) Rename(oldName, newName string, _ *imap.RenameOptions) error {
	st := s.store()
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.renameMailboxLocked(s.user, oldName, newName)
}

func (s *memSession) setSubscribed(name string, on bool) error {
	st := s.store()
	st.mu.Lock()
	defer st.mu.Unlock()
	mb, err := s.mailbox(name)
	if err != nil {
		return err
	}
	mb.subscribed = on
	return st.persist(mb.saveMeta)
}

func (s *memSession) Subscribe(name string) error   { return s.setSubscribed(name, true) }
func (s *memSession) Unsubscribe(name string) error { return s.setSubscribed(name, false) }

func (s *memSession) Namespace() (*imap.NamespaceData, error) {
	return &imap.NamespaceData{Personal: []imap.NamespaceDescriptor{{Delim: '/'}}}, nil
}

func (s *memSession) List(w *imapserver.ListWriter, ref string, patterns []string, opts *imap.ListOptions) error {
	if len(patterns) == 0 {
		return w.WriteList(&imap.ListData{Attrs: []imap.MailboxAttr{imap.MailboxAttrNoSelect}, Delim: '/'})
	}
	st := s.store()
	st.mu.Lock()
	var out []imap.ListData
	for name, mb := range s.user.mailboxes {
		match := false
		for _, p := range patterns {
			if imapserver.MatchList(name, '/', ref, p) {
				match = true
				break
			}
		}
		if !match || (opts.SelectSubscribed && !mb.subscribed) {
			continue
		}
		d := imap.ListData{Mailbox: name, Delim: '/'}
		if mb.subscribed {
			d.Attrs = append(d.Attrs, imap.MailboxAttrSubscribed)
		}
		if opts.ReturnStatus != nil {
			d.Status = mb.status(opts.ReturnStatus)
		}
		out = append(out, d)
	}
	st.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Mailbox < out[j].Mailbox })
	for i := range out {
		if err := w.WriteList(&out[i]); err != nil {
			return err
		}
	}
	return nil
}

func (mb *memMailbox) status(opts *imap.StatusOptions) *imap.StatusData {
	d := &imap.StatusData{Mailbox: mb.name}
	n := uint32(len(mb.msgs))
	if opts.NumMessages {
		d.NumMessages = &n
	}
	if opts.UIDNext {
		d.UIDNext = imap.UID(mb.uidNext)
	}
	if opts.UIDValidity {
		d.UIDValidity = mb.uidValidity
	}
	var unseen, deleted uint32
	var size int64
	for _, m := range mb.msgs {
		if !m.hasFlag(imap.FlagSeen) {
			unseen++
		}
		if m.hasFlag(imap.FlagDeleted) {
			deleted++
		}
		size += int64(len(m.raw))
	}
	if opts.NumUnseen {
		d.NumUnseen = &unseen
	}
	if opts.NumDeleted {
		d.NumDeleted = &deleted
	}
	if opts.Size {
		d.Size = &size
	}
	if opts.NumRecent {
		var zero uint32
		d.NumRecent = &zero
	}
	return d
}

func (s *memSession) Status(name string, opts *imap.StatusOptions) (*imap.StatusData, error) {
	st := s.store()
	st.mu.Lock()
	defer st.mu.Unlock()
	mb, err := s.mailbox(name)
	if err != nil {
		return nil, err
	}
	return mb.status(opts), nil
}

func (s *memSession) Append(name string, r imap.LiteralReader, opts *imap.AppendOptions) (*imap.AppendData, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	st := s.store()
	st.mu.Lock()
	defer st.mu.Unlock()
	mb, err := s.mailbox(name)
	if err != nil {
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTryCreate, Text: "No such mailbox"}
	}
	m, err := st.appendLocked(mb, raw, opts.Flags, opts.Time)
	if err != nil {
		return nil, err
	}
	return &imap.AppendData{UID: imap.UID(m.uid), UIDValidity: mb.uidValidity}, nil
}

func (s *memSession) Poll(w *imapserver.UpdateWriter, allowExpunge bool) error {
	if s.sel == nil {
		return nil
	}
	return s.sel.tracker.Poll(w, allowExpunge)
}

// Idle registers for wake-ups before it flushes pending updates, so an
// update that lands between the previous command and IDLE is never missed
// (the cause of go-imap's occasional lost IDLE notification).
func (s *memSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	st := s.store()
	st.mu.Lock()
	sel := s.sel
	if sel == nil {
		st.mu.Unlock()
		<-stop
		return nil
	}
	ch := make(chan struct{}, 1)
	sel.mb.waiters[ch] = struct{}{}
	st.mu.Unlock()
	defer func() {
		st.mu.Lock()
		delete(sel.mb.waiters, ch)
		st.mu.Unlock()
	}()
	for {
		if err := sel.tracker.Poll(w, true); err != nil {
			return err
		}
		select {
		case <-ch:
		case <-stop:
			return nil
		}
	}
}

// indexes resolves a sequence or UID set to indexes into mb.msgs, in
// ascending order. Callers hold the store lock.
func (sel *memSelected) indexes(numSet imap.NumSet) []int {
	mb := sel.mb
	if imap.IsSearchRes(numSet) {
		numSet = sel.searchRes
	}
	var out []int
	switch set := numSet.(type) {
	case imap.SeqSet:
		var maxSeq uint32
		for i := range mb.msgs {
			if c := sel.tracker.EncodeSeqNum(uint32(i + 1)); c > maxSeq {
				maxSeq = c
			}
		}
		set = staticSeqSet(set, maxSeq)
		for i := range mb.msgs {
			c := sel.tracker.EncodeSeqNum(uint32(i + 1))
			if c != 0 && set.Contains(c) {
				out = append(out, i)
			}
		}
	case imap.UIDSet:
		maxUID := mb.uidNext - 1
		if n := len(mb.msgs); n > 0 {
			maxUID = mb.msgs[n-1].uid
		}
		set = staticUIDSet(set, imap.UID(maxUID))
		for i, m := range mb.msgs {
			if set.Contains(imap.UID(m.uid)) {
				out = append(out, i)
			}
		}
	}
	return out
}

func staticSeqSet(set imap.SeqSet, maxNum uint32) imap.SeqSet {
	out := make(imap.SeqSet, len(set))
	for i, r := range set {
		if r.Start == 0 {
			r.Start = maxNum
		}
		if r.Stop == 0 {
			r.Stop = maxNum
		}
		if r.Start > r.Stop {
			r.Start, r.Stop = r.Stop, r.Start
		}
		out[i] = r
	}
	return out
}

func staticUIDSet(set imap.UIDSet, maxUID imap.UID) imap.UIDSet {
	out := make(imap.UIDSet, len(set))
	for i, r := range set {
		if r.Start == 0 {
			r.Start = maxUID
		}
		if r.Stop == 0 {
			r.Stop = maxUID
		}
		if r.Start > r.Stop {
			r.Start, r.Stop = r.Stop, r.Start
		}
		out[i] = r
	}
	return out
}

func (s *memSession) Expunge(_ *imapserver.ExpungeWriter, uids *imap.UIDSet) error {
	if s.sel.readOnly {
		return errReadOnly
	}
	st := s.store()
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.expungeLocked(s.sel.mb, func(m *memMessage) bool {
		return m.hasFlag(imap.FlagDeleted) && (uids == nil || uids.Contains(imap.UID(m.uid)))
	})
}

type fetchItem struct {
	seq      uint32
	msg      *memMessage
	flags    []imap.Flag
	newFlags bool
}

func (s *memSession) Fetch(w *imapserver.FetchWriter, numSet imap.NumSet, opts *imap.FetchOptions) error {
	markSeen := false
	for _, bs := range opts.BodySection {
		markSeen = markSeen || !bs.Peek
	}
	for _, bs := range opts.BinarySection {
		markSeen = markSeen || !bs.Peek
	}
	markSeen = markSeen && !s.sel.readOnly

	st := s.store()
	st.mu.Lock()
	var items []fetchItem
	for _, i := range s.sel.indexes(numSet) {
		m := s.sel.mb.msgs[i]
		it := fetchItem{seq: s.sel.tracker.EncodeSeqNum(uint32(i + 1)), msg: m}
		if markSeen && !m.hasFlag(imap.FlagSeen) {
			if err := st.setFlagsLocked(s.sel.mb, i, imap.StoreFlagsAdd, []imap.Flag{imap.FlagSeen}, s.sel.tracker); err != nil {
				st.mu.Unlock()
				return err
			}
			it.newFlags = true
		}
		it.flags = slices.Clone(m.flags)
		items = append(items, it)
	}
	st.mu.Unlock()

	for _, it := range items {
		if err := writeFetch(w.CreateMessage(it.seq), it, opts); err != nil {
			return err
		}
	}
	return nil
}

func writeFetch(rw *imapserver.FetchResponseWriter, it fetchItem, opts *imap.FetchOptions) error {
	m := it.msg
	rw.WriteUID(imap.UID(m.uid))
	if opts.Flags || it.newFlags {
		rw.WriteFlags(it.flags)
	}
	if opts.InternalDate {
		rw.WriteInternalDate(m.date)
	}
	if opts.RFC822Size {
		rw.WriteRFC822Size(int64(len(m.raw)))
	}
	if opts.Envelope {
		if h, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(m.raw))); err == nil {
			rw.WriteEnvelope(imapserver.ExtractEnvelope(h))
		}
	}
	if opts.BodyStructure != nil {
		rw.WriteBodyStructure(imapserver.ExtractBodyStructure(bytes.NewReader(m.raw)))
	}
	for _, bs := range opts.BodySection {
		b := bodySection(m.raw, bs)
		if err := writeLiteral(rw.WriteBodySection(bs, int64(len(b))), b); err != nil {
			return err
		}
	}
	for _, bs := range opts.BinarySection {
		b := imapserver.ExtractBinarySection(bytes.NewReader(m.raw), bs)
		if err := writeLiteral(rw.WriteBinarySection(bs, int64(len(b))), b); err != nil {
			return err
		}
	}
	for _, bss := range opts.BinarySectionSize {
		rw.WriteBinarySectionSize(bss, imapserver.ExtractBinarySectionSize(bytes.NewReader(m.raw), bss))
	}
	return rw.Close()
}

// bodySection returns BODY[section]. The whole message is served as
// stored, byte for byte, even when its header cannot be parsed (the
// library helper would return nothing then).
func bodySection(raw []byte, bs *imap.FetchItemBodySection) []byte {
	if bs.Specifier != imap.PartSpecifierNone || len(bs.Part) > 0 || len(bs.HeaderFields) > 0 || len(bs.HeaderFieldsNot) > 0 {
		return imapserver.ExtractBodySection(bytes.NewReader(raw), bs)
	}
	if p := bs.Partial; p != nil {
		if p.Offset >= int64(len(raw)) {
			return nil
		}
		raw = raw[p.Offset:]
		if p.Size < int64(len(raw)) {
			raw = raw[:p.Size]
		}
	}
	return raw
}

func writeLiteral(wc io.WriteCloser, b []byte) error {
	_, err := wc.Write(b)
	if cerr := wc.Close(); err == nil {
		err = cerr
	}
	return err
}

func (s *memSession) Store(w *imapserver.FetchWriter, numSet imap.NumSet, flags *imap.StoreFlags, _ *imap.StoreOptions) error {
	if s.sel.readOnly {
		return errReadOnly
	}
	st := s.store()
	st.mu.Lock()
	var items []fetchItem
	for _, i := range s.sel.indexes(numSet) {
		if err := st.setFlagsLocked(s.sel.mb, i, flags.Op, flags.Flags, s.sel.tracker); err != nil {
			st.mu.Unlock()
			return err
		}
		m := s.sel.mb.msgs[i]
		items = append(items, fetchItem{seq: s.sel.tracker.EncodeSeqNum(uint32(i + 1)), msg: m, flags: slices.Clone(m.flags), newFlags: true})
	}
	st.mu.Unlock()
	if flags.Silent {
		return nil
	}
	for _, it := range items {
		if err := writeFetch(w.CreateMessage(it.seq), it, &imap.FetchOptions{Flags: true}); err != nil {
			return err
		}
	}
	return nil
}

// copyLocked appends copies of the messages at idx to dest.
func (s *memSession) copyLocked(idx []int, dest *memMailbox) (*imap.CopyData, error) {
	st := s.store()
	var src, dst imap.UIDSet
	for _, i := range idx {
		m := s.sel.mb.msgs[i]
		c, err := st.appendLocked(dest, m.raw, m.flags, m.date)
		if err != nil {
			return nil, err
		}
		src.AddNum(imap.UID(m.uid))
		dst.AddNum(imap.UID(c.uid))
	}
	return &imap.CopyData{UIDValidity: dest.uidValidity, SourceUIDs: src, DestUIDs: dst}, nil
}

func (s *memSession) copyDest(name string) (*memMailbox, error) {
	dest := s.user.mailboxes[mailboxKey(name)]
	if dest == nil {
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTryCreate, Text: "No such mailbox"}
	}
	if dest == s.sel.mb {
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Text: "Source and destination are the same mailbox"}
	}
	return dest, nil
}

func (s *memSession) Copy(numSet imap.NumSet, name string) (*imap.CopyData, error) {
	st := s.store()
	st.mu.Lock()
	defer st.mu.Unlock()
	dest, err := s.copyDest(name)
	if err != nil {
		return nil, err
	}
	return s.copyLocked(s.sel.indexes(numSet), dest)
}

// Move copies, then expunges the originals; the EXPUNGE responses reach
// this session through Poll, right after the COPYUID.
func (s *memSession) Move(w *imapserver.MoveWriter, numSet imap.NumSet, name string) error {
	if s.sel.readOnly {
		return errReadOnly
	}
	st := s.store()
	st.mu.Lock()
	dest, err := s.copyDest(name)
	if err != nil {
		st.mu.Unlock()
		return err
	}
	idx := s.sel.indexes(numSet)
	data, err := s.copyLocked(idx, dest)
	if err != nil {
		st.mu.Unlock()
		return err
	}
	moved := map[*memMessage]bool{}
	for _, i := range idx {
		moved[s.sel.mb.msgs[i]] = true
	}
	err = st.expungeLocked(s.sel.mb, func(m *memMessage) bool { return moved[m] })
	st.mu.Unlock()
	if err != nil {
		return err
	}
	return w.WriteCopyData(data)
}

func (s *memSession) Search(kind imapserver.NumKind, criteria *imap.SearchCriteria, opts *imap.SearchOptions) (*imap.SearchData, error) {
	st := s.store()
	st.mu.Lock()
	defer st.mu.Unlock()
	mb := s.sel.mb
	crit := s.staticCriteria(criteria)
	var (
		data   imap.SearchData
		seqSet imap.SeqSet
		uidSet imap.UIDSet
	)
	for i, m := range mb.msgs {
		seq := s.sel.tracker.EncodeSeqNum(uint32(i + 1))
		if !matchCriteria(m, seq, crit) {
			continue
		}
		uidSet.AddNum(imap.UID(m.uid))
		num := m.uid
		if kind == imapserver.NumKindSeq {
			if seq == 0 {
				continue
			}
			seqSet.AddNum(seq)
			num = seq
		}
		if data.Min == 0 || num < data.Min {
			data.Min = num
		}
		if num > data.Max {
			data.Max = num
		}
		data.Count++
	}
	if kind == imapserver.NumKindSeq {
		data.All = seqSet
	} else {
		data.All = uidSet
	}
	if opts != nil && opts.ReturnSave {
		s.sel.searchRes = uidSet
	}
	return &data, nil
}

// staticCriteria replaces "*" and "$" in the number sets of a search.
func (s *memSession) staticCriteria(c *imap.SearchCriteria) *imap.SearchCriteria {
	out := *c
	out.SeqNum, out.UID = nil, nil
	mb := s.sel.mb
	for _, set := range c.SeqNum {
		if imap.IsSearchRes(set) {
			out.UID = append(out.UID, s.sel.searchRes)
			continue
		}
		var maxSeq uint32
		for i := range mb.msgs {
			maxSeq = max(maxSeq, s.sel.tracker.EncodeSeqNum(uint32(i+1)))
		}
		out.SeqNum = append(out.SeqNum, staticSeqSet(set, maxSeq))
	}
	for _, set := range c.UID {
		if imap.IsSearchRes(set) {
			out.UID = append(out.UID, s.sel.searchRes)
			continue
		}
		maxUID := mb.uidNext - 1
		if n := len(mb.msgs); n > 0 {
			maxUID = mb.msgs[n-1].uid
		}
		out.UID = append(out.UID, staticUIDSet(set, imap.UID(maxUID)))
	}
	out.Not = make([]imap.SearchCriteria, len(c.Not))
	for i := range c.Not {
		out.Not[i] = *s.staticCriteria(&c.Not[i])
	}
	out.Or = make([][2]imap.SearchCriteria, len(c.Or))
	for i := range c.Or {
		out.Or[i] = [2]imap.SearchCriteria{*s.staticCriteria(&c.Or[i][0]), *s.staticCriteria(&c.Or[i][1])}
	}
	return &out
}

func matchCriteria(m *memMessage, seq uint32, c *imap.SearchCriteria) bool {
	for _, set := range c.SeqNum {
		if seq == 0 || !set.Contains(seq) {
			return false
		}
	}
	for _, set := range c.UID {
		if !set.Contains(imap.UID(m.uid)) {
			return false
		}
	}
	if !inDateRange(m.date, c.Since, c.Before) {
		return false
	}
	for _, f := range c.Flag {
		if !m.hasFlag(f) {
			return false
		}
	}
	for _, f := range c.NotFlag {
		if m.hasFlag(f) {
			return false
		}
	}
	size := int64(len(m.raw))
	if c.Larger != 0 && size <= c.Larger || c.Smaller != 0 && size >= c.Smaller {
		return false
	}
	if len(c.Header) > 0 || !c.SentSince.IsZero() || !c.SentBefore.IsZero() {
		h, _ := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(m.raw)))
		for _, hc := range c.Header {
			vals := h.Values(hc.Key)
			if len(vals) == 0 {
				return false
			}
			if hc.Value != "" && !slices.ContainsFunc(vals, func(v string) bool { return containsFold(decodeHeaderText(v), hc.Value) }) {
				return false
			}
		}
		if !c.SentSince.IsZero() || !c.SentBefore.IsZero() {
			t := parseDate(h.Get("Date"))
			if t.IsZero() || !inDateRange(t, c.SentSince, c.SentBefore) {
				return false
			}
		}
	}
	body := m.raw
	if i := bytes.Index(m.raw, []byte("\r\n\r\n")); i >= 0 {
		body = m.raw[i+4:]
	}
	for _, t := range c.Text {
		if !containsFold(string(m.raw), t) {
			return false
		}
	}
	for _, t := range c.Body {
		if !containsFold(string(body), t) {
			return false
		}
	}
	for i := range c.Not {
		if matchCriteria(m, seq, &c.Not[i]) {
			return false
		}
	}
	for i := range c.Or {
		if !matchCriteria(m, seq, &c.Or[i][0]) && !matchCriteria(m, seq, &c.Or[i][1]) {
			return false
		}
	}
	return true
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// inDateRange compares calendar dates only, as SEARCH SINCE/BEFORE do.
func inDateRange(t, since, before time.Time) bool {
	day := func(x time.Time) time.Time { return time.Date(x.Year(), x.Month(), x.Day(), 0, 0, 0, 0, time.UTC) }
	d := day(t)
	if !since.IsZero() && d.Before(day(since)) {
		return false
	}
	if !before.IsZero() && !d.Before(day(before)) {
		return false
	}
	return true
}
