package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"unicode/utf8"
)

// Limits on what clients send over the WebSocket.
const (
	maxMessageBytes = 4 << 10
	maxIDLen        = 64
	maxTokenLen     = 64
)

// clientMessage is a message from a WebSocket client, checked.
type clientMessage struct {
	Type    string // "hello", "move" or "ping"
	ID      string // echoed in the answer
	Token   string // hello: the seat token, "" for a spectator
	Version int    // hello: last version seen, -1 for none; move: the version the move was made against
	Move    string // move: the move in the game's notation, which the game reads
	// TakeBacks (hello) is the number of take-backs the client has seen.
	TakeBacks int
	Accept    bool // take_back_answer: yes or no
}

// wireMessage is a client message as it comes over the wire.
type wireMessage struct {
	Type    string  `json:"type"`
	ID      *string `json:"id"`
	Token   *string `json:"token"`
	Version *int    `json:"version"`
	Move    *string `json:"move"`
	// TakeBacks is hello's; Accept take_back_answer's.
	TakeBacks *int  `json:"take_backs"`
	Accept    *bool `json:"accept"`
}

// messageFields are the fields each type of client message may have.
var messageFields = map[string][]string{
	"hello":            {"token", "version", "take_backs"},
	"move":             {"id", "version", "move"},
	"ping":             {"id"},
	"take_back":        {"id", "version"},
	"take_back_answer": {"id", "version", "accept"},
}

// decodeClientMessage reads and checks one client message: a single JSON
// object with a known type and exactly the fields that type allows. The error
// says what is wrong, for the client; with it, the message holds what was
// read before the error (its id, once checked, for a refusal to carry).
func decodeClientMessage(data []byte) (clientMessage, error) {
	w, err := readWire(data)
	if err != nil {
		return clientMessage{}, err
	}
	m := clientMessage{Type: w.Type, Version: -1}
	if err := w.checkFields(); err != nil {
		return m, err
	}
	if err := w.fill(&m); err != nil {
		return m, err
	}
	return m, w.require(&m)
}

// readWire reads a message as it comes over the wire: UTF-8, within the
// size limit, one JSON object of the protocol's fields.
func readWire(data []byte) (wireMessage, error) {
	var w wireMessage
	if len(data) > maxMessageBytes {
		return w, fmt.Errorf("message of %d bytes; the limit is %d", len(data), maxMessageBytes)
	}
	if !utf8.Valid(data) {
		return w, errors.New("message is not UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return w, fmt.Errorf("message is not a JSON object of the protocol: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return w, errors.New("message has data after its JSON object")
	}
	return w, nil
}

// checkFields checks that the message's type is known and that it has no
// field its type does not allow.
func (w *wireMessage) checkFields() error {
	allowed, known := messageFields[w.Type]
	switch {
	case w.Type == "":
		return errors.New(`message has no "type"`)
	case !known:
		return fmt.Errorf("unknown message type %q", w.Type)
	}
	for _, f := range []struct {
		name    string
		present bool
	}{{"id", w.ID != nil}, {"token", w.Token != nil}, {"version", w.Version != nil}, {"move", w.Move != nil},
		{"take_backs", w.TakeBacks != nil}, {"accept", w.Accept != nil}} {
		if f.present && !slices.Contains(allowed, f.name) {
			return fmt.Errorf("a %s message has no %q field", w.Type, f.name)
		}
	}
	return nil
}

// fill checks the values of the fields that any type may have and copies
// them into m, stopping at the first that is wrong.
func (w *wireMessage) fill(m *clientMessage) error {
	if w.ID != nil {
		if len(*w.ID) > maxIDLen {
			return fmt.Errorf("id is longer than %d bytes", maxIDLen)
		}
		m.ID = *w.ID
	}
	if w.Token != nil {
		if len(*w.Token) > maxTokenLen {
			return fmt.Errorf("token is longer than %d bytes", maxTokenLen)
		}
		m.Token = *w.Token
	}
	if w.Version != nil {
		if *w.Version < -1 || (w.Type == "move" && *w.Version < 0) {
			return fmt.Errorf("version %d is negative", *w.Version)
		}
		m.Version = *w.Version
	}
	if w.TakeBacks != nil {
		if *w.TakeBacks < 0 {
			return fmt.Errorf("take_backs %d is negative", *w.TakeBacks)
		}
		m.TakeBacks = *w.TakeBacks
	}
	return nil
}

// require checks that the message has the fields its type needs, and
// copies those of its type alone into m.
func (w *wireMessage) require(m *clientMessage) error {
	switch w.Type {
	case "take_back", "take_back_answer":
		if w.Version == nil || *w.Version < 0 {
			return fmt.Errorf(`a %s needs the "version" it was asked at`, w.Type)
		}
		if w.Type == "take_back_answer" {
			if w.Accept == nil {
				return errors.New(`a take_back_answer needs "accept", true or false`)
			}
			m.Accept = *w.Accept
		}
	case "move":
		if w.Version == nil {
			return errors.New(`a move needs the "version" it was made against`)
		}
		if w.Move == nil || *w.Move == "" {
			return errors.New(`a move message needs a "move", in the game's notation`)
		}
		m.Move = *w.Move
	}
	return nil
}
