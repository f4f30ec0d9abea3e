"""Drives `ocmem mcp` through the official MCP Python SDK, as a host would.

Reads a plan from stdin: {"command", "args", "cwd", "env", "calls": [{"name", "arguments"}]};
starts the server over stdio, initializes the session, lists the tools, makes each call in
order, and prints one JSON document: the initialize result, the tools and each call's result,
all in their wire form. A protocol error of a call is recorded as {"protocolError": message}.
Whether the answers are right is for the test that runs it to judge.
"""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def wire(model):
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


async def run(plan):
    server = StdioServerParameters(
        command=plan["command"],
        args=plan["args"],
        cwd=plan["cwd"],
        env=plan["env"],
    )
    report = {"calls": []}
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            report["initialize"] = wire(await session.initialize())
            report["tools"] = [wire(tool) for tool in (await session.list_tools()).tools]
            for call in plan["calls"]:
                try:
                    result = await session.call_tool(call["name"], call["arguments"])
                    report["calls"].append(wire(result))
                except Exception as error:  # a protocol error: the test fails on it
                    report["calls"].append({"protocolError": repr(error)})
    return report


def main():
    plan = json.load(sys.stdin)
    report = asyncio.run(run(plan))
    json.dump(report, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
