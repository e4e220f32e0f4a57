package devmail

import (
	"errors"
	"fmt"
)

// Deliver stores raw, unchanged, in the INBOX of each recipient in to, as if
// it had come over SMTP with envelope sender from. Recipients must be in the
// configured domains; accounts that do not exist yet are created. If any
// recipient is refused, nothing is delivered.
func (s *Server) Deliver(from string, to []string, raw []byte) error {
	if s.isClosed() {
		return fmt.Errorf("devmail: deliver: %w", ErrClosed)
	}
	if int64(len(raw)) > s.set.maxMessageBytes {
		return fmt.Errorf("devmail: deliver: %w: %d bytes, limit %d", ErrMessageTooLarge, len(raw), s.set.maxMessageBytes)
	}
	if len(to) == 0 {
		return errors.New("devmail: deliver: no recipients")
	}
	seen := make(map[string]bool, len(to))
	rcpts := make([]string, 0, len(to))
	for _, t := range to {
		addr, err := s.recipient(t)
		if err != nil {
			return fmt.Errorf("devmail: deliver: %w", err)
		}
		if !seen[addr] {
			seen[addr] = true
			rcpts = append(rcpts, addr)
		}
	}
	defer s.delivered.notify() // even after a partial delivery
	for _, addr := range rcpts {
		acct, err := s.accounts.ensure(addr)
		if err != nil {
			return fmt.Errorf("devmail: deliver to %s: %w", addr, err)
		}
		data, err := acct.appendToInbox(raw)
		if err != nil {
			return fmt.Errorf("devmail: deliver to %s: %w", addr, err)
		}
		s.log.Info("devmail: delivered", "from", from, "to", addr, "bytes", len(raw),
			"uidvalidity", data.UIDValidity, "uid", uint32(data.UID))
	}
	return nil
}

// recipient normalises addr and checks that its domain is handled here.
func (s *Server) recipient(addr string) (string, error) {
	norm, domain, err := splitAddress(addr)
	if err != nil {
		return "", err
	}
	if !s.set.domains[domain] {
		return "", fmt.Errorf("%w: %s", ErrUnknownDomain, norm)
	}
	return norm, nil
}
