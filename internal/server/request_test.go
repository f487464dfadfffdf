package server

import (
	"net/http"
	"strings"
	"testing"
)

// TestContentType: a body's media type is read as a media type, so its
// case and parameters are its own and only application/json itself is
// JSON: application/jsonx or a charset other than UTF-8 is refused, and
// APPLICATION/JSON is taken.
func TestContentType(t *testing.T) {
	ts := newTestServer(t, nil)
	for _, tc := range []struct {
		contentType string
		status      int
	}{
		{"application/json", http.StatusCreated},
		{"APPLICATION/JSON", http.StatusCreated},
		{"Application/Json; Charset=UTF-8", http.StatusCreated},
		{"application/json;charset=utf-8", http.StatusCreated},
		{"application/json ; charset=\"utf-8\"", http.StatusCreated},
		{"application/json;", http.StatusCreated}, // an empty parameter list, as RFC 9110 allows
		{"application/jsonx", http.StatusBadRequest},
		{"application/json-seq", http.StatusBadRequest},
		{"application/json+xml", http.StatusBadRequest},
		{"application/json; charset=latin1", http.StatusBadRequest},
		{"application/json; charset", http.StatusBadRequest},
		{"text/plain", http.StatusBadRequest},
		{"application", http.StatusBadRequest},
		{"/json", http.StatusBadRequest},
	} {
		t.Run(tc.contentType, func(t *testing.T) {
			status, body := ts.request("POST", "/api/games", "", map[string]any{"game": "tiny", "seats": []map[string]any{{"kind": "human"}, {"kind": "human"}}},
				"Content-Type", tc.contentType)
			if status != tc.status {
				t.Fatalf("Content-Type %q: %d %.120s, want %d", tc.contentType, status, body, tc.status)
			}
			if status == http.StatusBadRequest && !strings.Contains(string(body), `"bad_request"`) {
				t.Errorf("Content-Type %q refused with %s", tc.contentType, body)
			}
		})
	}
}
