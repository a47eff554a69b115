"""A JSON request body read and validated as FastAPI reads a route's one body, for a route
that reads its own parameters (the move route): public pydantic and FastAPI errors only."""

from __future__ import annotations

import json
from typing import Any, TypeVar

from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request

from app.web.security import is_json, scope_header

Model = TypeVar("Model", bound=BaseModel)
# What FastAPI answers when a body cannot be decoded at all (e.g. it is not UTF-8).
UNREADABLE_BODY = "There was an error parsing the body"


async def json_body(request: Request, model: type[Model]) -> Model:
    """The request's body as `model` (a required body); raises RequestValidationError
    (with FastAPI's error types and locations) or HTTPException 400 where FastAPI would."""
    raw = await request.body()
    if not raw:
        missing = {"type": "missing", "loc": ("body",), "msg": "Field required", "input": None}
        raise RequestValidationError([missing])
    value: Any = raw
    if is_json(scope_header(request.scope, b"content-type") or b""):
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
    try:  # validated as FastAPI validates a body (from_attributes: its error types)
        return model.model_validate(value, from_attributes=True)
    except ValidationError as error:
        problems = [
            {**problem, "loc": ("body", *problem["loc"])}
            for problem in error.errors(include_url=False)
        ]
        raise RequestValidationError(problems, body=value) from None
