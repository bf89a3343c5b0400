import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Paginated } from '@rt/contracts';
import { SuperAdminOnly, ViewingAs } from '../access/access.decorators';
import { ApiJsonBodyErrors, ApiNoContentResponse } from '../common/api-responses';
import { PathResource } from '../common/resource-id';
import { CreateTagDto } from './dto/create-tag.dto';
import { TagListResponseDto } from './dto/tag-list.response';
import { TagResponseDto } from './dto/tag.response';
import { TagsQueryDto } from './dto/tags-query.dto';
import { UpdateTagDto } from './dto/update-tag.dto';
import { tagNotFound, TagsService } from './tags.service';

const TAG = new PathResource('tag', tagNotFound);

@ApiTags('tags')
@Controller('tags')
export class TagsController {
  constructor(private readonly tags: TagsService) {}

  @Get()
  @ViewingAs()
  @ApiOperation({
    operationId: 'listTags',
    summary: 'List tags',
    description:
      'Any hat. By type, French name, id. `type` filters (any other value → 422); `per_page` is 25 by ' +
      'default and lowered to 1000 silently, so one page can hold the whole registry.',
  })
  @ApiOkResponse({ type: TagListResponseDto, description: 'One page of tags.' })
  list(@Query() query: TagsQueryDto): Promise<Paginated<TagResponseDto>> {
    return this.tags.list(query);
  }

  @Post()
  @SuperAdminOnly()
  @ApiOperation({
    operationId: 'createTag',
    summary: 'Create a tag',
    description: '`names.fr` is required; `en` and `de` may be null. `icon` matches `^[a-z0-9-]+$`.',
  })
  @ApiCreatedResponse({ type: TagResponseDto, description: 'The tag.' })
  @ApiJsonBodyErrors()
  create(@Body() dto: CreateTagDto): Promise<TagResponseDto> {
    return this.tags.create(dto);
  }

  @Put(':id')
  @SuperAdminOnly()
  @TAG.route()
  @ApiOperation({
    operationId: 'updateTag',
    summary: 'Update a tag',
    description: 'Absent fields stay as they are; `names`, when sent, replaces the three names.',
  })
  @ApiOkResponse({ type: TagResponseDto, description: 'The tag.' })
  @ApiJsonBodyErrors()
  update(@TAG.param() id: string, @Body() dto: UpdateTagDto): Promise<TagResponseDto> {
    return this.tags.update(id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @SuperAdminOnly()
  @TAG.route()
  @ApiOperation({
    operationId: 'deleteTag',
    summary: 'Delete a tag',
    description: 'The tag is removed from every activity that carried it; the activities stay.',
  })
  @ApiNoContentResponse('Deleted.')
  delete(@TAG.param() id: string): Promise<void> {
    return this.tags.delete(id);
  }
}
