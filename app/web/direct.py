"""A FastAPI route class that reads its own few parameters: the move route's plumbing."""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable, Coroutine
from copy import deepcopy
from typing import Any

from fastapi._compat import ModelField, get_missing_field_error
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from app.web.security import is_json, scope_header

Handler = Callable[[Request], Coroutine[Any, Any, Response]]
# What FastAPI answers when a body cannot be decoded at all (e.g. it is not UTF-8).
UNREADABLE_BODY = "There was an error parsing the body"


class DirectRoute(APIRoute):
    """An APIRoute whose requests skip FastAPI's general request handling.

    FastAPI describes the route (OpenAPI) as usual, and bad input fails as FastAPI
    fails it (the same RequestValidationError locations and HTTPExceptions), but the
    endpoint is called straight from `handle`: no dependency solving, no exit stacks,
    no content-type parsing with the email package. On the move route that machinery
    cost about 100 us of the ~530 us a move took (bench/server.py, server CPU).

    The endpoint must be `async` and return a Response; it may take only path
    parameters typed `str`, one JSON body, and `async` dependencies whose only
    parameter is the Request. Anything else is refused when the route is made, and
    dependencies given to the route or its router are not supported.
    """

    def __init__(self, path: str, endpoint: Callable[..., Any], **options: Any) -> None:
        if options.get("dependencies"):
            raise TypeError(f"{path}: a DirectRoute takes no route dependencies")
        super().__init__(path, endpoint, **options)
        self._handler = self.get_route_handler()

    def get_route_handler(self) -> Handler:
        dependant = self.dependant
        where = f"DirectRoute {self.path} ({getattr(dependant.call, '__name__', '?')})"
        unsupported = (
            dependant.query_params,
            dependant.header_params,
            dependant.cookie_params,
            dependant.request_param_name,
            dependant.response_param_name,
            dependant.background_tasks_param_name,
            dependant.http_connection_param_name,
        )
        if any(unsupported) or len(dependant.body_params) > 1 or self._embed_body_fields:
            raise TypeError(f"{where}: only str path parameters, one body and dependencies")
        if not inspect.iscoroutinefunction(dependant.call):
            raise TypeError(f"{where}: the endpoint must be async")
        path_names = []
        for field in dependant.path_params:
            if field.field_info.annotation is not str:
                raise TypeError(f"{where}: path parameter {field.name} must be a str")
            path_names.append(field.name)
        dependencies: list[tuple[str, Callable[[Request], Awaitable[Any]]]] = []
        for sub in dependant.dependencies:
            simple = sub.request_param_name and not (
                sub.path_params
                or sub.query_params
                or sub.header_params
                or sub.cookie_params
                or sub.body_params
                or sub.dependencies
            )
            if not (simple and sub.name and inspect.iscoroutinefunction(sub.call)):
                raise TypeError(f"{where}: a dependency may take only the Request, async")
            dependencies.append((sub.name, sub.call))
        endpoint: Callable[..., Awaitable[Any]] = dependant.call
        body_field = self.body_field

        async def handler(request: Request) -> Response:
            path_params = request.scope["path_params"]
            values: dict[str, Any] = {name: path_params[name] for name in path_names}
            if body_field is not None:
                values[body_field.name] = await _read_body(request, body_field)
            for name, call in dependencies:
                values[name] = await call(request)
            response = await endpoint(**values)
            if not isinstance(response, Response):
                raise TypeError(f"{where}: the endpoint must return a Response")
            return response

        return handler

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.methods and scope["method"] not in self.methods:
            raise HTTPException(405, headers={"Allow": ", ".join(self.methods)})
        response = await self._handler(Request(scope, receive, send))
        await response(scope, receive, send)


async def _receive_body(receive: Receive) -> bytes:
    """The whole request body, as Starlette's Request.body() reads it, minus its stream."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] == "http.request":
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                return b"".join(chunks)
        elif message["type"] == "http.disconnect":
            raise ClientDisconnect()


async def _read_body(request: Request, body_field: ModelField) -> Any:
    """The body, validated as FastAPI validates a route's single JSON body; raises
    RequestValidationError or HTTPException where FastAPI would."""
    raw = await _receive_body(request.receive)
    value: Any = raw
    if not raw:
        if body_field.field_info.is_required():
            raise RequestValidationError([get_missing_field_error(loc=("body",))])
        value = deepcopy(body_field.default)
        if not body_field.field_info.validate_default:
            return value
    elif is_json(scope_header(request.scope, b"content-type") or b""):
        try:
            value = json.loads(raw)
        except json.JSONDecodeError as error:
            problem = {
                "type": "json_invalid",
                "loc": ("body", error.pos),
                "msg": "JSON decode error",
                "input": {},
                "ctx": {"error": error.msg},
            }
            raise RequestValidationError([problem], body=error.doc) from error
        except Exception as error:  # not UTF-8, nested too deep: FastAPI's 400
            raise HTTPException(400, UNREADABLE_BODY) from error
    validated, errors = body_field.validate(value, {}, loc=("body",))
    if errors:
        raise RequestValidationError(errors, body=value)
    return validated
