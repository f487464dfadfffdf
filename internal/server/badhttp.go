package server

import (
	"bytes"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// netHTTPErrorHeaders is what net/http writes after the status line when it
// answers a request it could not read, by itself and without calling a
// handler: a NUL byte or another byte no header may hold, a line without a
// colon, a bad header name, no Host, headers over the limit. No option of
// http.Server changes that answer, which is plain text; the Listener's
// connections rewrite it into the API's JSON error (jsonFromNetHTTP). Our
// own answers never begin this way: every one carries the security headers,
// which sort before Content-Type.
const netHTTPErrorHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

// jsonFromNetHTTP returns p, one write to a connection, as the API's JSON
// error with the same status, if p is net/http's own plain-text answer to a
// request it could not read: "HTTP/1.1 400 Bad Request", the headers above,
// and the status again as the body, with or without net/http's reason
// after a colon in both. Anything else is not its answer, and ok is false.
func jsonFromNetHTTP(p []byte) (answer []byte, ok bool) {
	// Every answer's first write passes here: the status first, so that
	// only an error's is searched for the headers.
	rest, found := bytes.CutPrefix(p, []byte("HTTP/1.1 "))
	if !found || len(rest) < 3 || rest[0] != '4' && rest[0] != '5' {
		return nil, false
	}
	code, err := strconv.Atoi(string(rest[:3]))
	if err != nil || code < 400 || code > 599 {
		return nil, false
	}
	statusLine, body, found := bytes.Cut(rest, []byte(netHTTPErrorHeaders))
	if !found {
		return nil, false
	}
	after, found := strings.CutPrefix(string(statusLine[3:]), " "+http.StatusText(code))
	why, detailed := strings.CutPrefix(after, ": ")
	switch {
	case !found || after != "" && !detailed:
		return nil, false
	case string(body) == string(statusLine):
		// The status again, as net/http writes its body.
	case code == http.StatusNotImplemented && !detailed:
		why = string(body) // its words for a transfer coding it does not know
	default:
		return nil, false
	}
	apiCode := "bad_request"
	switch {
	case code == http.StatusRequestHeaderFieldsTooLarge:
		apiCode, why = "too_large", "its headers are over the limit"
	case why == "":
		why = "a header holds a byte no header may hold (such as NUL), or a line is no header"
	}
	js := mustJSON(errorBody{Error: errorDetail{Code: apiCode, Message: "the request could not be read: " + why}})
	h := http.Header{}
	securityHeaders(h)
	h.Set("Content-Type", "application/json")
	h.Set("Connection", "close")
	h.Set("Content-Length", strconv.Itoa(len(js)))
	var b bytes.Buffer
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\n", code, http.StatusText(code))
	h.Write(&b)
	b.WriteString("\r\n")
	b.Write(js)
	return b.Bytes(), true
}
