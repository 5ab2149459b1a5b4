import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { ActionIcon, Box, Tabs, type MantineSpacing, type StyleProp } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import classes from './ScrollableTabsList.module.css';

type Side = 'start' | 'end';

/** Which edges hide tabs beyond them. */
function hiddenEdges(list: HTMLElement): Record<Side, boolean> {
  return { start: list.scrollLeft > 1, end: list.scrollLeft + list.clientWidth < list.scrollWidth - 1 };
}

/**
 * A Tabs.List that scrolls sideways when its tabs do not fit (a phone): each edge that hides tabs fades
 * out and carries a button that scrolls towards them, and the selected tab is brought into view. Where
 * every tab fits it is a plain list.
 */
export function ScrollableTabsList({ children, mb }: { children: ReactNode; mb?: StyleProp<MantineSpacing> }) {
  const list = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState<Record<Side, boolean>>({ start: false, end: false });

  const measure = useCallback(() => {
    if (!list.current) return;
    const next = hiddenEdges(list.current);
    setEdges((current) => (current.start === next.start && current.end === next.end ? current : next));
  }, []);

  useEffect(() => {
    const element = list.current;
    if (!element) return;
    // The selected tab in view: chosen by the address, or reached with the arrow keys.
    const revealSelected = () => {
      const tab = element.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]');
      if (tab && tab.offsetLeft < element.scrollLeft) element.scrollLeft = tab.offsetLeft;
      else if (tab && tab.offsetLeft + tab.offsetWidth > element.scrollLeft + element.clientWidth) element.scrollLeft = tab.offsetLeft + tab.offsetWidth - element.clientWidth;
      measure();
    };
    revealSelected();
    const resized = new ResizeObserver(measure);
    resized.observe(element);
    const selection = new MutationObserver(revealSelected);
    selection.observe(element, { subtree: true, attributeFilter: ['aria-selected'] });
    return () => {
      resized.disconnect();
      selection.disconnect();
    };
  }, [measure]);

  const scrollTowards = (side: Side) => {
    const element = list.current;
    if (!element) return;
    const step = Math.max(element.clientWidth * 0.6, 80);
    element.scrollBy({ left: side === 'end' ? step : -step, behavior: 'smooth' });
  };

  return (
    <Box className={classes.frame} mb={mb} data-testid="scrollable-tabs">
      <Tabs.List ref={list} className={classes.list} onScroll={measure}>
        {children}
      </Tabs.List>
      {(['start', 'end'] as const).map(
        (side) =>
          edges[side] && (
            <div key={side} className={classes.edge} data-side={side} data-testid={`tabs-fade-${side}`}>
              <ActionIcon
                variant="default"
                radius="xl"
                size="md"
                // Tabs are reached with the arrow keys; the button is for pointers.
                tabIndex={-1}
                aria-label={side === 'end' ? 'Scroll tabs right' : 'Scroll tabs left'}
                onClick={() => scrollTowards(side)}
              >
                {side === 'end' ? <IconChevronRight size={16} /> : <IconChevronLeft size={16} />}
              </ActionIcon>
            </div>
          ),
      )}
    </Box>
  );
}
