// Package web is Lagoon's web page: plain HTML, CSS and JavaScript modules,
// embedded in the binary and served by the game server.
//
// There is no build step: the files under static/ are what the browser
// gets, so that the page can be read, changed and debugged as it is served.
// The page is a small single-page application that routes on the URL path
// (/, /game/{id}, /replay/{id}, /rules, /rules/{game}) and talks to the
// server only through the HTTP API and WebSocket protocol of docs/api.md
// and docs/protocol.md. It is a shell that names no game and a module per
// game under static/js/games/{id}/ (docs/web.md).
package web

import (
	"embed"
	"io/fs"
)

//go:embed static
var static embed.FS

// Files returns the page's files, index.html at the root.
func Files() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic("web: the embedded files have no static directory: " + err.Error())
	}
	return sub
}
