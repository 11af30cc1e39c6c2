from channels.generic.websocket import AsyncJsonWebsocketConsumer

from .services import group_name


class TableConsumer(AsyncJsonWebsocketConsumer):
    """Tells a table's open pages that it changed. The notice holds the deal number and its
    version, never a card: each page fetches what its own viewer may see."""

    async def connect(self):
        self.group = group_name(self.scope["url_route"]["kwargs"]["token"])
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def table_changed(self, event):
        await self.send_json({"deal": event["deal"], "version": event["version"]})
