package server

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDecodeClientMessage(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want clientMessage
		err  string // a part of the error, "" for none
	}{
		{in: `{"type":"hello"}`, want: clientMessage{Type: "hello", Version: -1}},
		{in: `{"type":"hello","token":"abc","version":12}`, want: clientMessage{Type: "hello", Token: "abc", Version: 12}},
		{in: `{"type":"hello","version":-1}`, want: clientMessage{Type: "hello", Version: -1}},
		{in: `{"type":"move","id":"m1","version":0,"move":"T 9,3"}`, want: clientMessage{Type: "move", ID: "m1", Version: 0, Move: "T 9,3"}},
		{in: `{"type":"move","version":2,"move":"play 5"}`, want: clientMessage{Type: "move", Version: 2, Move: "play 5"}},
		{in: ` {"type":"ping","id":"p"} `, want: clientMessage{Type: "ping", ID: "p", Version: -1}},
		{in: ``, err: "not a JSON object"},
		{in: `null`, err: `no "type"`},
		{in: `[]`, err: "not a JSON object"},
		{in: `{"type":"hello"} {}`, err: "data after"},
		{in: `{"type":"hello","extra":1}`, err: "unknown field"},
		{in: `{"type":"dance"}`, err: "unknown message type"},
		{in: `{"type":"hello","move":"S 1,1"}`, err: `no "move" field`},
		{in: `{"type":"ping","version":1}`, err: `no "version" field`},
		{in: `{"type":"move","token":"x","version":1,"move":"S 1,1"}`, err: `no "token" field`},
		{in: `{"type":"hello","version":-2}`, err: "negative"},
		{in: `{"type":"move","version":-1,"move":"S 1,1"}`, err: "negative"},
		{in: `{"type":"move","move":"S 1,1"}`, err: `needs the "version"`},
		{in: `{"type":"move","version":1}`, err: `needs a "move"`},
		{in: `{"type":"move","version":1,"move":""}`, err: `needs a "move"`},
		{in: `{"type":"move","version":1.5,"move":"S 1,1"}`, err: "not a JSON object"},
		{in: `{"type":"ping","id":"` + strings.Repeat("i", maxIDLen+1) + `"}`, err: "id is longer"},
		{in: `{"type":"hello","token":"` + strings.Repeat("t", maxTokenLen+1) + `"}`, err: "token is longer"},
		{in: "{\"type\":\"ping\",\"id\":\"\xff\"}", err: "not UTF-8"},
		{in: `{"type":"ping","id":"` + strings.Repeat("i", maxMessageBytes) + `"}`, err: "limit"},
	} {
		got, err := decodeClientMessage([]byte(tc.in))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%.60s: %v", tc.in, err)
		case tc.err == "" && got != tc.want:
			t.Errorf("%.60s: got %+v, want %+v", tc.in, got, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%.60s: error %v, want one with %q", tc.in, err, tc.err)
		}
	}
}

// FuzzDecodeClientMessage checks that the decoder never panics, and that a
// message it accepts says the same thing once written out again and read
// back.
func FuzzDecodeClientMessage(f *testing.F) {
	for _, s := range []string{
		`{"type":"hello","token":"abc","version":12}`,
		`{"type":"move","id":"m1","version":0,"move":"T 9,3"}`,
		`{"type":"ping","id":"p"}`,
		`{"type":"move","version":-1,"move":"S 1,1"}`,
		`{"type":"hello","extra":[1,{"a":null}]}`,
		`{"type":"move","version":1e3,"move":"S 01,1"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := decodeClientMessage(data)
		if err != nil {
			if err.Error() == "" {
				t.Error("an error without a message")
			}
			return
		}
		w := map[string]any{"type": m.Type}
		switch m.Type {
		case "hello":
			w["token"], w["version"] = m.Token, m.Version
		case "move":
			w["id"], w["version"], w["move"] = m.ID, m.Version, m.Move
		case "ping":
			w["id"] = m.ID
		default:
			t.Fatalf("accepted a message of type %q", m.Type)
		}
		b, err := json.Marshal(w)
		if err != nil {
			t.Fatal(err)
		}
		again, err := decodeClientMessage(b)
		if err != nil {
			t.Fatalf("%s was accepted, but its rewriting %s is not: %v", data, b, err)
		}
		if again != m {
			t.Fatalf("%s reads as %+v, its rewriting %s as %+v", data, m, b, again)
		}
	})
}
