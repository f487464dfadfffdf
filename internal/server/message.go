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

// decodeClientMessage reads and checks one client message: a single JSON
// object with a known type and exactly the fields that type allows. The error
// says what is wrong, for the client.
func decodeClientMessage(data []byte) (clientMessage, error) {
	var m clientMessage
	if len(data) > maxMessageBytes {
		return m, fmt.Errorf("message of %d bytes; the limit is %d", len(data), maxMessageBytes)
	}
	if !utf8.Valid(data) {
		return m, errors.New("message is not UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var w wireMessage
	if err := dec.Decode(&w); err != nil {
		return m, fmt.Errorf("message is not a JSON object of the protocol: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return m, errors.New("message has data after its JSON object")
	}
	m.Type = w.Type
	m.Version = -1
	allowed := func(fields ...string) error {
		for _, f := range []struct {
			name    string
			present bool
		}{{"id", w.ID != nil}, {"token", w.Token != nil}, {"version", w.Version != nil}, {"move", w.Move != nil},
			{"take_backs", w.TakeBacks != nil}, {"accept", w.Accept != nil}} {
			if f.present && !slices.Contains(fields, f.name) {
				return fmt.Errorf("a %s message has no %q field", w.Type, f.name)
			}
		}
		return nil
	}
	var err error
	switch w.Type {
	case "hello":
		err = allowed("token", "version", "take_backs")
	case "move":
		err = allowed("id", "version", "move")
	case "ping":
		err = allowed("id")
	case "take_back":
		err = allowed("id", "version")
	case "take_back_answer":
		err = allowed("id", "version", "accept")
	case "":
		return m, errors.New(`message has no "type"`)
	default:
		return m, fmt.Errorf("unknown message type %q", w.Type)
	}
	if err != nil {
		return m, err
	}
	if w.ID != nil {
		if len(*w.ID) > maxIDLen {
			return m, fmt.Errorf("id is longer than %d bytes", maxIDLen)
		}
		m.ID = *w.ID
	}
	if w.Token != nil {
		if len(*w.Token) > maxTokenLen {
			return m, fmt.Errorf("token is longer than %d bytes", maxTokenLen)
		}
		m.Token = *w.Token
	}
	if w.Version != nil {
		if *w.Version < -1 || (w.Type == "move" && *w.Version < 0) {
			return m, fmt.Errorf("version %d is negative", *w.Version)
		}
		m.Version = *w.Version
	}
	if w.TakeBacks != nil {
		if *w.TakeBacks < 0 {
			return m, fmt.Errorf("take_backs %d is negative", *w.TakeBacks)
		}
		m.TakeBacks = *w.TakeBacks
	}
	switch w.Type {
	case "take_back", "take_back_answer":
		if w.Version == nil || *w.Version < 0 {
			return m, fmt.Errorf(`a %s needs the "version" it was asked at`, w.Type)
		}
		if w.Type == "take_back_answer" {
			if w.Accept == nil {
				return m, errors.New(`a take_back_answer needs "accept", true or false`)
			}
			m.Accept = *w.Accept
		}
	}
	if w.Type == "move" {
		if w.Version == nil {
			return m, errors.New(`a move needs the "version" it was made against`)
		}
		if w.Move == nil || *w.Move == "" {
			return m, errors.New(`a move message needs a "move", in the game's notation`)
		}
		m.Move = *w.Move
	}
	return m, nil
}
